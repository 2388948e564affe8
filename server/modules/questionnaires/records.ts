import { LICENSE_LIMIT } from '../../../contract/billing.ts'
import { fillText } from '../../../contract/knowledge.ts'
import { PORTAL_TEXTS } from '../../../contract/portal.ts'
import { QUESTIONNAIRE_TEXTS, type QuestionnaireKind } from '../../../contract/questionnaires.ts'
import type { WorkStatus } from '../../../contract/work.ts'
import { forbidden } from '../../auth/permissions.ts'
import { writeAudit } from '../../db/audit.ts'
import { inTransaction } from '../../db/index.ts'
import { fetchPage } from '../../db/paging.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { detectUpload } from '../../http/multipart.ts'
import type { TempFile } from '../../storage/index.ts'
import { limitOf } from '../account/license.ts'
import { checkProduct } from '../products/service.ts'
import {
  ANALYSE_JOB,
  KINDS,
  MIMES,
  type Queryable,
  type QuestionnaireDeps,
  REQUEUE_AFTER_MS,
  SUMMARY_SQL,
  type SummaryRow,
  toQuestionnaire,
} from './shared.ts'

/**
 * Questionnaires as records: list, upload (the analysis is queued as a job), delete, the stored original, and the reaper of cut-off analyses.
 */
/** The list's paging, search and filters (contract's questionnaireListQuerySchema, parsed). */
interface QuestionnaireListFilters {
  page: number
  page_size: number
  search?: string
  owner?: 'me' | number
  customer_id?: number
  work_status?: WorkStatus
  overdue?: 'true' | 'false'
  order?: 'created' | 'due_date' | 'name'
  /** A product's id, or 'none' for those answered for all products (issue 38). */
  product?: 'none' | number
}

export function createRecords(
  deps: QuestionnaireDeps,
  /** Runs an analysis in this process, for when there is no job runner (API-only tests). */
  analyseHere: (id: number) => Promise<unknown>,
) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'questionnaires' })

  async function get(orgId: number, id: number, client: Queryable = pool) {
    const { rows } = await client.query<SummaryRow>(
      `${SUMMARY_SQL} where q.org_id = $1 and q.id = $2`,
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    return toQuestionnaire(row)
  }

  /**
   * What names the state of a questionnaire's answers, in one read: every change to its questions
   * or answers moves its revision and updated_at, and every change to the library its stamp (a
   * key for cached lists). 404 for another organisation's id.
   */
  async function stamp(orgId: number, id: number) {
    const { rows } = await pool.query<Record<string, unknown>>(
      `select q.revision, q.updated_at, q.status, q.progress, q.progress_label, q.error, u.updated_at as creator,
              -- answers show the freshness of the library entries behind them (issue 28): the
              -- library's last change or review, the organisation's cycle, and the day
              (select max(greatest(i.updated_at, i.last_reviewed_at)) from kb_qa_items i where i.org_id = q.org_id) as library,
              (select count(*) from kb_qa_items i where i.org_id = q.org_id) as items,
              o.review_cycle_days, o.updated_at as org, current_date as today,
              -- the rows count open comment threads (issue 29)
              (select count(*) || ':' || coalesce(max(greatest(c.created_at, c.edited_at, c.deleted_at, c.resolved_at))::text, '')
                 from question_comments c where c.questionnaire_id = q.id) as comments
         from questionnaires q join organizations o on o.id = q.org_id
         left join users u on u.id = q.created_by
        where q.org_id = $1 and q.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    return rows[0]
  }

  async function list(orgId: number, query: QuestionnaireListFilters, userId?: number) {
    const where = ['q.org_id = $1']
    const values: unknown[] = [orgId]
    const add = (clause: (at: string) => string, value: unknown) => {
      values.push(value)
      where.push(clause(`$${values.length}`))
    }
    if (query.search?.trim())
      add(
        (at) => `q.name ilike ${at}`,
        `%${query.search.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`,
      )
    // the work around it (issue 29)
    if (query.owner !== undefined)
      add((at) => `q.owner_id = ${at}`, query.owner === 'me' ? (userId ?? 0) : query.owner)
    if (query.customer_id) add((at) => `q.customer_id = ${at}`, query.customer_id)
    if (query.work_status) add((at) => `q.work_status = ${at}`, query.work_status)
    if (query.overdue)
      where.push(
        `${query.overdue === 'true' ? '' : 'not '}coalesce(q.due_date < current_date and q.work_status <> 'sent', false)`,
      )
    if (query.product === 'none') where.push('q.product_id is null')
    else if (query.product !== undefined) add((at) => `q.product_id = ${at}`, query.product)
    const order = {
      created: 'q.created_at desc, q.id desc',
      due_date: 'q.due_date asc nulls last, q.id desc',
      name: 'lower(q.name), q.id',
    }[query.order ?? 'created']
    const { count, rows } = await fetchPage<SummaryRow>(
      pool,
      {
        select: SUMMARY_SQL,
        counted: 'questionnaires q',
        where: where.join(' and '),
        order,
      },
      values,
      query,
    )
    return { count, results: rows.map(toQuestionnaire) }
  }

  /* ------------------------------------------------------------ intake */

  async function queueAnalysis(id: number) {
    if (deps.jobs) {
      await deps.jobs.send(ANALYSE_JOB, { questionnaireId: id }, { retryLimit: 1, retryDelay: 5 })
      return
    }
    // no job runner (API-only tests): analyse in the background of this process
    void analyseHere(id).catch((error) => log.error({ err: error, id }, 'analysis failed'))
  }

  async function upload(
    orgId: number,
    userId: number,
    upload: { temp: TempFile; filename: string },
    /** The product it is answered for (issue 38); null: the company as a whole. */
    productId: number | null = null,
  ) {
    const { name, kind } = await detectUpload(upload, KINDS, QUESTIONNAIRE_TEXTS.unsupported)
    const id = await inTransaction(pool, async (client) => {
      await checkProduct(client, orgId, productId)
      const limit = await limitOf(client, orgId, 'max_questionnaire', true)
      if (limit !== null) {
        const used = await client.query<{ count: string }>(
          'select count(*) from questionnaires where org_id = $1',
          [orgId],
        )
        if (Number(used.rows[0]?.count ?? 0) + 1 > limit) {
          throw apiError(
            403,
            fillText(QUESTIONNAIRE_TEXTS.questionnairesLimit, { max_questionnaire: limit }),
            { code: LICENSE_LIMIT, detail: { limit: 'max_questionnaire', max: limit } },
          )
        }
      }
      const key = await deps.storage.commit(orgId, upload.temp)
      const { rows } = await client.query<{ id: string }>(
        `insert into questionnaires (org_id, name, kind, mime, size_bytes, sha256, storage_key, status, progress_label, created_by, product_id)
         values ($1, $2, $3, $4, $5, $6, $7, 'queued', 'Waiting to be analysed', $8, $9) returning id`,
        [
          orgId,
          name,
          kind,
          MIMES[kind],
          upload.temp.size,
          upload.temp.sha256,
          key,
          userId,
          productId,
        ],
      )
      const id = Number(rows[0]?.id)
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'questionnaire.uploaded', target: `questionnaire:${id}`, name },
      )
      return id
    })
    await queueAnalysis(id)
    return get(orgId, id)
  }

  /** Deletes questionnaires; with `ownedBy`, only when every one is that user's (else 403). */
  async function remove(orgId: number, ids: number[], ownedBy?: number, actorId?: number) {
    if (ownedBy !== undefined) await assertOwned(orgId, ids, ownedBy)
    const files = await pool.query<{ org_id: string; storage_key: string }>(
      `select f.org_id, f.storage_key from filled_files f
         join questionnaires q on q.id = f.questionnaire_id
        where q.org_id = $1 and q.id = any($2::bigint[])`,
      [orgId, ids],
    )
    const rows = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string; name: string; storage_key: string }>(
        'delete from questionnaires where org_id = $1 and id = any($2::bigint[]) returning id, name, storage_key',
        [orgId, ids],
      )
      for (const row of rows)
        await writeAudit(
          client,
          { orgId, actorId: actorId ?? null },
          { action: 'questionnaire.deleted', target: `questionnaire:${row.id}`, name: row.name },
        )
      return rows
    })
    for (const key of [...rows, ...files.rows].map((row) => row.storage_key))
      await deps.storage.delete(orgId, key).catch(() => undefined)
    return rows.length
  }

  /** 403 unless every questionnaire of `ids` (in the organisation) was uploaded by `userId`. */
  async function assertOwned(orgId: number, ids: number[], userId: number) {
    const { rows } = await pool.query(
      `select 1 from questionnaires
        where org_id = $1 and id = any($2::bigint[]) and created_by is distinct from $3 limit 1`,
      [orgId, ids, userId],
    )
    if (rows.length) throw forbidden(QUESTIONNAIRE_TEXTS.deleteOthers)
  }

  /** The uploaded file; with `actorId`, the download is audited. */
  async function original(orgId: number, id: number, actorId?: number) {
    const { rows } = await pool.query<{
      name: string
      mime: string
      kind: QuestionnaireKind
      storage_key: string
      size_bytes: string
    }>(
      'select name, mime, kind, storage_key, size_bytes from questionnaires where org_id = $1 and id = $2',
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    if (row.kind === 'portal') throw notFound(PORTAL_TEXTS.noFile)
    if (actorId !== undefined)
      await writeAudit(
        pool,
        { orgId, actorId },
        { action: 'questionnaire.downloaded', target: `questionnaire:${id}`, name: row.name },
      )
    return {
      name: row.name,
      mime: row.mime,
      kind: row.kind,
      size: Number(row.size_bytes),
      path: deps.storage.pathOf(orgId, row.storage_key),
      stream: () => deps.storage.open(orgId, row.storage_key),
    }
  }

  /** Reaper support: whether a blob key belongs to a questionnaire or a filled file. */
  async function references(orgId: number, key: string) {
    const { rowCount } = await pool.query(
      `select 1 from questionnaires where org_id = $1 and storage_key = $2
       union all select 1 from filled_files where org_id = $1 and storage_key = $2 limit 1`,
      [orgId, key],
    )
    return Boolean(rowCount)
  }

  /** After a crash: analyses cut off fail with a message that says what to do. */
  /**
   * Fails analyses cut off longer than `staleMs` ago, and queues again the questionnaires queued
   * longer than `requeueAfterMs` ago whose job was lost (at the start of a single node: all of them,
   * since the process that held their jobs is gone).
   */
  async function reap(staleMs: number, requeueAfterMs = Math.max(staleMs, REQUEUE_AFTER_MS)) {
    const { rowCount } = await pool.query(
      `update questionnaires set status = 'failed', progress = 0, progress_label = null, error = $2, updated_at = now()
        where status = 'analyzing' and processing_started_at < now() - ($1::int * interval '1 millisecond')`,
      [staleMs, QUESTIONNAIRE_TEXTS.cutOff],
    )
    // a crash between the upload's commit and its job leaves a row queued with no job: queue it
    // again (a job that does exist finds it taken and does nothing)
    const { rows: queued } = await pool.query<{ id: string }>(
      `update questionnaires set updated_at = now()
        where status = 'queued' and updated_at < now() - ($1::int * interval '1 millisecond') returning id`,
      [requeueAfterMs],
    )
    for (const row of queued) await queueAnalysis(Number(row.id))
    return rowCount ?? 0
  }

  return { get, stamp, list, queueAnalysis, upload, remove, original, references, reap }
}

export type Records = ReturnType<typeof createRecords>
