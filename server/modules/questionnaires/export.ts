import {
  type ExportFormat,
  type FilledFile,
  QUESTIONNAIRE_TEXTS,
} from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { notFound } from '../../http/errors.ts'
import type { ParseLimits } from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { Storage } from '../../storage/index.ts'
import { auditQuestionnaire } from '../collaboration/activity.ts'
import { createFileBuilder } from './export-build.ts'
import { createExportRuns } from './export-runs.ts'
import type { QuestionnaireService } from './service.ts'

/**
 * Filled files: answers written into the customer's own file, or a clean basic table. Every
 * export is a run of a job (export-runs.ts, issue 37) and is kept as a version; the latest is
 * current while the questionnaire's revision has not moved on. This reads them and hands them out.
 */

export function createExportService(deps: {
  database: Database
  storage: Storage
  questionnaires: QuestionnaireService
  parseLimits?: Partial<ParseLimits>
  /** Without it, an export runs in this process right after its request. */
  jobs?: Jobs
  logger?: Logger
}) {
  const { pool } = deps.database

  interface FilledDb {
    id: string
    questionnaire_id: string
    name: string
    format: ExportFormat
    size_bytes: string
    revision: number
    answers_written: number
    created_at: Date
    current_revision: number
  }
  const toFilled = (row: FilledDb): FilledFile => ({
    id: Number(row.id),
    questionnaire_id: Number(row.questionnaire_id),
    name: row.name,
    format: row.format,
    size: Number(row.size_bytes),
    revision: row.revision,
    current: row.revision === row.current_revision,
    answers_written: row.answers_written,
    created_at: row.created_at.toISOString(),
  })
  const FILLED_SQL = `select f.id, f.questionnaire_id, f.name, f.format, f.size_bytes, f.revision, f.answers_written,
      f.created_at, q.revision as current_revision
    from filled_files f join questionnaires q on q.id = f.questionnaire_id`

  async function filled(orgId: number, id: number) {
    const { rows } = await pool.query<FilledDb>(`${FILLED_SQL} where f.org_id = $1 and f.id = $2`, [
      orgId,
      id,
    ])
    if (!rows[0]) throw notFound('Filled file not found')
    return toFilled(rows[0])
  }

  async function latest(orgId: number, questionnaireId: number) {
    await deps.questionnaires.get(orgId, questionnaireId)
    const { rows } = await pool.query<FilledDb>(
      `${FILLED_SQL} where f.org_id = $1 and f.questionnaire_id = $2 order by f.id desc limit 1`,
      [orgId, questionnaireId],
    )
    return rows[0] ? toFilled(rows[0]) : null
  }

  async function check(orgId: number, questionnaireId: number) {
    const file = await latest(orgId, questionnaireId)
    const { rows } = await pool.query<{ export_approved_only: boolean }>(
      'select export_approved_only from organizations where id = $1',
      [orgId],
    )
    return {
      exists: file !== null,
      current: file?.current ?? false,
      filled_file: file,
      approved_only_default: rows[0]?.export_approved_only ?? false,
    }
  }

  /** A filled file; with `actorId`, its download is audited with the questionnaire's name. */
  async function blob(orgId: number, id: number, actorId?: number) {
    const { rows } = await pool.query<{
      name: string
      mime: string
      storage_key: string
      size_bytes: string
      questionnaire_id: string
    }>(
      `select name, mime, storage_key, size_bytes, questionnaire_id from filled_files
        where org_id = $1 and id = $2`,
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound('Filled file not found')
    if (actorId !== undefined)
      await auditQuestionnaire(
        pool,
        { orgId, actorId },
        'questionnaire.filled_file_downloaded',
        Number(row.questionnaire_id),
        { file: row.name, filled_file_id: id },
      )
    return {
      name: row.name,
      mime: row.mime,
      size: Number(row.size_bytes),
      stream: deps.storage.open(orgId, row.storage_key),
    }
  }

  async function latestBlob(orgId: number, questionnaireId: number, actorId?: number) {
    const file = await latest(orgId, questionnaireId)
    if (!file) throw notFound(QUESTIONNAIRE_TEXTS.noFilledFile)
    return blob(orgId, file.id, actorId)
  }

  const runs = createExportRuns({ ...deps, builder: createFileBuilder(deps), filled })
  return { ...runs, check, latest, blob, latestBlob }
}

export type ExportService = ReturnType<typeof createExportService>
