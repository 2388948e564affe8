import {
  type ExportFormat,
  type ExportRun,
  type ExportRunStatus,
  type FilledFile,
  QUESTIONNAIRE_TEXTS,
} from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { ApiException, notFound } from '../../http/errors.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import { ParseError } from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { Storage } from '../../storage/index.ts'
import { recordActivity } from '../collaboration/activity.ts'
import { emitWebhook } from '../platform/webhooks.ts'
import { type BuiltFile, EXPORT_STEPS, type FileBuilder } from './export-build.ts'
import type { Queryable } from './shared.ts'

/**
 * Exports as jobs (issue 37, S8): the request records a run and answers at once; the job builds
 * the file, marks its progress on the run and records the filled file. A job retried after its
 * worker died finds the run finished and does nothing, or builds again: the filled file, the
 * activity and the audit entry are written once, under the run's row lock. Without a job system
 * (tests, one process) the run starts in this process right after the request.
 */

export const EXPORT_JOB = 'questionnaire.export'

/** A run unfinished this long after it was asked for is given up by the reaper (it failed). */
export const EXPORT_GIVE_UP_MS = 60 * 60_000

interface RunDb {
  id: string
  org_id: string
  questionnaire_id: string
  requested_by: string | null
  format: ExportFormat
  status: ExportRunStatus
  progress: number
  label: string | null
  error: string | null
  filled_file_id: string | null
  approved_only: boolean
}
const RUN_COLUMNS = `id, org_id, questionnaire_id, requested_by, format, status, progress, label, error, filled_file_id, approved_only`

export function createExportRuns(deps: {
  database: Database
  storage: Storage
  jobs?: Jobs
  logger?: Logger
  builder: FileBuilder
  filled: (orgId: number, id: number) => Promise<FilledFile>
}) {
  const { pool } = deps.database
  const log = deps.logger?.child({ component: 'exports' })

  async function toRun(orgId: number, row: RunDb): Promise<ExportRun> {
    return {
      id: Number(row.id),
      status: row.status,
      progress: row.progress,
      label: row.label,
      questionnaire_id: Number(row.questionnaire_id),
      format: row.format,
      approved_only: row.approved_only,
      filled_file: row.filled_file_id ? await deps.filled(orgId, Number(row.filled_file_id)) : null,
      error: row.error,
    }
  }

  /**
   * POST export-original/ and export-basic/: checked as before the file was built (another
   * organisation's questionnaire 404, still analysed 409, a PDF filled in place 400), recorded, queued.
   */
  async function start(
    orgId: number,
    userId: number,
    questionnaireId: number,
    format: ExportFormat,
    approvedOnly?: boolean,
  ) {
    await deps.builder.exportable(orgId, questionnaireId, format)
    // not said: the organisation's default (issue 39); a table export writes every answer
    const { rows } = await pool.query<RunDb>(
      `insert into questionnaire_exports (org_id, questionnaire_id, requested_by, format, label, approved_only)
       select $1, $2, $3, $4, $5,
              coalesce($6::boolean, case when $4 = 'original'
                then (select export_approved_only from organizations where id = $1) else false end)
        where exists (select 1 from questionnaires where org_id = $1 and id = $2)
       returning ${RUN_COLUMNS}`,
      [orgId, questionnaireId, userId, format, EXPORT_STEPS.queued, approvedOnly ?? null],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    await queue(Number(row.id))
    return toRun(orgId, row)
  }

  async function queue(id: number) {
    if (deps.jobs) {
      await deps.jobs.send(EXPORT_JOB, { exportId: id }, { retryLimit: 2, retryDelay: 2 })
      return
    }
    void run(id, { final: true }).catch((error) =>
      log?.error({ err: error, exportId: id }, 'export failed'),
    )
  }

  /** GET exports/{id}/: the run, with its filled file once done. */
  async function get(orgId: number, id: number) {
    const { rows } = await pool.query<RunDb>(
      `select ${RUN_COLUMNS} from questionnaire_exports where org_id = $1 and id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.exportNotFound)
    return toRun(orgId, rows[0])
  }

  /** Tells the questionnaire's viewers that its exports changed (when the transaction commits). */
  async function announce(client: Queryable, run: RunDb) {
    const [text, values] = notifyStatement({
      key: `questionnaire:${run.questionnaire_id}`,
      org: Number(run.org_id),
      type: 'change',
      data: {
        kind: 'export',
        question_ids: [],
        by: run.requested_by ? Number(run.requested_by) : null,
        revision: null,
      },
    })
    await client.query(text, values)
  }

  const step = (id: number) => async (progress: number, label: string) => {
    await pool.query(
      `update questionnaire_exports set progress = greatest(progress, $2), label = $3, updated_at = now()
        where id = $1 and status = 'running'`,
      [id, progress, label],
    )
  }

  async function fail(id: number, reason: string) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<RunDb>(
        `update questionnaire_exports set status = 'failed', label = null, error = $2, updated_at = now()
          where id = $1 and status in ('queued', 'running') returning ${RUN_COLUMNS}`,
        [id, reason],
      )
      if (rows[0]) await announce(client, rows[0])
    })
  }

  /**
   * The job. `final`: a failure ends the run (in-process, where nothing retries it); otherwise an
   * unexpected error (the database gone) is thrown for the job system to retry, and only what
   * the export itself refuses (a file the worker cannot write, a questionnaire deleted) ends it.
   */
  async function run(id: number, options: { final?: boolean } = {}) {
    const { rows } = await pool.query<RunDb>(
      `update questionnaire_exports set status = 'running', progress = greatest(progress, 10),
          label = $2, updated_at = now()
        where id = $1 and status in ('queued', 'running') and filled_file_id is null
        returning ${RUN_COLUMNS}`,
      [id, EXPORT_STEPS.reading],
    )
    const claimed = rows[0]
    if (!claimed) return // finished by an earlier attempt, or gone with its questionnaire
    let file: BuiltFile
    try {
      file = await deps.builder.build(
        Number(claimed.org_id),
        Number(claimed.questionnaire_id),
        claimed.format,
        step(id),
        claimed.approved_only,
      )
    } catch (error) {
      const refused = error instanceof ParseError || error instanceof ApiException
      if (!refused && !options.final) throw error
      log?.warn({ err: error, exportId: id }, 'export failed')
      await fail(id, refused ? error.message : QUESTIONNAIRE_TEXTS.exportFailed)
      return
    }
    await step(id)(90, EXPORT_STEPS.saving)
    try {
      await save(claimed, file)
    } catch (error) {
      if (!options.final) throw error
      log?.warn({ err: error, exportId: id }, 'export failed')
      await fail(id, QUESTIONNAIRE_TEXTS.exportFailed)
    }
  }

  /**
   * The filled file, its activity line and audit entry, and the run marked done, in one
   * transaction under the run's row lock: of two attempts of one run, one writes them; the other
   * finds the run finished and drops its blob.
   */
  async function save(run: RunDb, file: BuiltFile) {
    const orgId = Number(run.org_id)
    const questionnaireId = Number(run.questionnaire_id)
    const userId = run.requested_by ? Number(run.requested_by) : null
    const temp = await deps.storage.tempFromBuffer(file.data)
    let key: string | null = null
    try {
      key = await deps.storage.commit(orgId, temp)
      const written = await inTransaction(pool, async (client) => {
        const locked = await client.query<{
          status: ExportRunStatus
          filled_file_id: string | null
        }>('select status, filled_file_id from questionnaire_exports where id = $1 for update', [
          run.id,
        ])
        const now = locked.rows[0]
        if (!now || now.filled_file_id || !['queued', 'running'].includes(now.status)) return false
        const inserted = await client.query<{ id: string }>(
          `insert into filled_files (org_id, questionnaire_id, name, format, mime, size_bytes, storage_key, revision, answers_written, created_by)
           select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 where exists (select 1 from questionnaires where org_id = $1 and id = $2)
           returning id`,
          [
            orgId,
            questionnaireId,
            file.name,
            file.format,
            file.mime,
            file.data.length,
            key,
            file.revision,
            file.written,
            userId,
          ],
        )
        const filledId = inserted.rows[0]?.id
        if (!filledId) return false
        // the activity's line (issue 29) and the audit entry name who asked for the export
        await recordActivity(client, {
          orgId,
          questionnaireId,
          kind: 'exported',
          summary: `Exported ${file.name} (${file.written.toLocaleString('en')} ${file.written === 1 ? 'answer' : 'answers'} written)`,
          userId,
        })
        await client.query(
          `update questionnaire_exports set status = 'done', progress = 100, label = null, error = null,
              filled_file_id = $2, updated_at = now() where id = $1`,
          [run.id, filledId],
        )
        await announce(client, run)
        // issue 41: the organisation's endpoints hear of the filled file
        await emitWebhook(client, orgId, 'questionnaire.exported', {
          questionnaire_id: questionnaireId,
          name: file.name,
          format: file.format,
          answers_written: file.written,
          filled_file_id: Number(filledId),
        })
        return true
      })
      if (!written) await deps.storage.delete(orgId, key)
    } catch (error) {
      if (key) await deps.storage.delete(orgId, key).catch(() => undefined)
      else await deps.storage.discard(temp)
      throw error
    }
  }

  /**
   * After a crash: runs left unfinished for `staleMs` (0 at the start of a single node, where no
   * other process can hold them) are queued again; the job finds a finished one and does nothing.
   * A run unfinished for an hour is given up, with a reason that says to export again.
   */
  async function recover(staleMs: number) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<RunDb>(
        `update questionnaire_exports set status = 'failed', label = null, error = $2, updated_at = now()
          where status in ('queued', 'running') and created_at < now() - ($1::int * interval '1 millisecond')
          returning ${RUN_COLUMNS}`,
        [EXPORT_GIVE_UP_MS, QUESTIONNAIRE_TEXTS.exportCutOff],
      )
      for (const row of rows) await announce(client, row)
    })
    const { rows } = await pool.query<{ id: string }>(
      `update questionnaire_exports set updated_at = now()
        where status in ('queued', 'running') and updated_at <= now() - ($1::int * interval '1 millisecond')
        returning id`,
      [staleMs],
    )
    for (const row of rows) {
      log?.info({ exportId: Number(row.id) }, 'queueing an export that was cut off')
      await queue(Number(row.id))
    }
    return rows.length
  }

  return { start, get, run, recover }
}

export type ExportRuns = ReturnType<typeof createExportRuns>
