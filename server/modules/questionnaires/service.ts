import { fillText, KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import {
  type Answer,
  type AnswerEdit,
  type AnswerFilter,
  type AnswerStatus,
  type Citation,
  confidenceBand,
  type Operation,
  type OperationKind,
  QUESTIONNAIRE_TEXTS,
  type Questionnaire,
  type QuestionnaireKind,
  type QuestionnaireStatus,
  type QuestionRow,
  type Tab,
  type TabMapping,
} from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import {
  detectFileKind,
  kindFromName,
  ParseError,
  type ParseLimits,
  readQuestionnaire,
} from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { Storage, TempFile } from '../../storage/index.ts'
import type { AnalysedTab, AnswerTarget } from '../../workbooks/analyse.ts'
import { displayName } from '../repository/service.ts'

/**
 * Questionnaires: intake and analysis (a job), the answers with their candidates, and the history
 * of every change with undo. Every query carries the caller's org id; another organisation's
 * questionnaire, question or answer is simply not found.
 */

export const ANALYSE_JOB = 'questionnaire.analyse'

export interface QuestionnaireDeps {
  database: Database
  storage: Storage
  jobs?: Jobs
  logger: Logger
  parseLimits: Partial<ParseLimits>
}

type Queryable = Pick<Database['pool'], 'query'>

const KINDS: QuestionnaireKind[] = ['xlsx', 'csv', 'docx', 'pdf']
const MIMES: Record<QuestionnaireKind, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
}

/** An answer counts as answered when it has text or a dropdown value and is not a placeholder. */
const ANSWERED_SQL = `(a.status in ('generated', 'edited', 'approved') and (a.text <> '' or a.choice is not null))`

const SUMMARY_SQL = `
  select q.id, q.name, q.kind, q.size_bytes, q.status, q.progress, q.progress_label, q.error, q.revision,
         q.created_at, q.updated_at, u.id as user_id, u.first_name, u.last_name, u.email,
         coalesce(c.questions, 0) as questions, coalesce(c.answered, 0) as answered,
         coalesce(c.approved, 0) as approved,
         (select count(*) from questionnaire_tabs t where t.questionnaire_id = q.id and t.mapping_state = 'unsure') as unsure_tabs
    from questionnaires q
    left join users u on u.id = q.created_by
    left join lateral (
      select count(*) as questions,
             count(*) filter (where ${ANSWERED_SQL}) as answered,
             count(*) filter (where a.status = 'approved') as approved
        from questionnaire_questions qq
        join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
       where qq.questionnaire_id = q.id and qq.deleted_at is null
    ) c on true`

interface SummaryRow {
  id: string
  name: string
  kind: QuestionnaireKind
  size_bytes: string
  status: QuestionnaireStatus
  progress: number
  progress_label: string | null
  error: string | null
  revision: number
  created_at: Date
  updated_at: Date
  user_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
  questions: string
  answered: string
  approved: string
  unsure_tabs: string
}

const toQuestionnaire = (row: SummaryRow): Questionnaire => ({
  id: Number(row.id),
  name: row.name,
  kind: row.kind,
  size: Number(row.size_bytes),
  status: row.status,
  progress: row.status === 'ready' ? 100 : row.progress,
  progress_label:
    row.status === 'analyzing' || row.status === 'generating' || row.status === 'queued'
      ? row.progress_label
      : null,
  error: row.status === 'failed' ? row.error : null,
  questions: Number(row.questions),
  answered: Number(row.answered),
  approved: Number(row.approved),
  unsure_tabs: Number(row.unsure_tabs),
  can_export_original: row.kind !== 'pdf',
  revision: row.revision,
  added_by: row.user_id
    ? {
        id: String(row.user_id),
        name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || (row.email ?? ''),
        email: row.email ?? '',
      }
    : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

interface AnswerRowDb {
  id: string
  question_id: string
  rank: number
  text: string
  choice: string | null
  comment: string
  status: AnswerStatus
  confidence: number | null
  citations: Citation[]
  note: string | null
  updated_at: Date
}

const toAnswer = (row: AnswerRowDb): Answer => ({
  id: Number(row.id),
  question_id: Number(row.question_id),
  rank: row.rank,
  text: row.text,
  choice: row.choice,
  comment: row.comment,
  status: row.status,
  confidence: row.confidence,
  band: row.status === 'no_answer' ? null : confidenceBand(row.confidence),
  citations: row.citations,
  note: row.note,
  updated_at: row.updated_at.toISOString(),
})

/** The state of an answer an operation records before and after. */
interface AnswerState {
  text: string
  choice: string | null
  comment: string
  status: AnswerStatus
  confidence: number | null
  citations: Citation[]
  note: string | null
}
interface QuestionState {
  selected_rank: number
  deleted: boolean
}
export type Change =
  /** before is null for a candidate the change created; undo removes it. */
  | { t: 'a'; id: number; before: AnswerState | null; after: AnswerState }
  | { t: 'q'; id: number; before: QuestionState; after: QuestionState }

const answerState = (row: AnswerRowDb | AnswerState): AnswerState => ({
  text: row.text,
  choice: row.choice,
  comment: row.comment,
  status: row.status,
  confidence: row.confidence,
  citations: row.citations,
  note: row.note,
})

const isAnswered = (state: AnswerState) =>
  ['generated', 'edited', 'approved'].includes(state.status) &&
  (state.text !== '' || state.choice !== null)

/** Where an answer goes, as a short label: a cell (Sheet!C12) or a table cell. */
export function targetLabel(target: AnswerTarget | null): string | null {
  if (!target) return null
  if (target.type === 'cell') {
    const column = target.column ?? target.marks?.[0]?.column ?? null
    if (column === null) return null
    let n = column + 1
    let letters = ''
    while (n > 0) {
      letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
      n = Math.floor((n - 1) / 26)
    }
    return `${letters}${target.row}`
  }
  if (target.type === 'docx_cell')
    return `Table ${target.table + 1}, row ${target.row + 1}, cell ${target.cell + 1}`
  return `After paragraph ${target.paragraph + 1}`
}

/** A questionnaire queued this long without a job taking it is queued again by the reaper. */
const REQUEUE_AFTER_MS = 30_000

export function createQuestionnaireService(deps: QuestionnaireDeps) {
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
   * What names the state of a questionnaire's answers, in one indexed read: every change to its
   * questions or answers moves its revision and updated_at (a key for cached lists). 404 for
   * another organisation's id.
   */
  async function stamp(orgId: number, id: number) {
    const { rows } = await pool.query<Record<string, unknown>>(
      `select q.revision, q.updated_at, q.status, q.progress, q.progress_label, q.error, u.updated_at as creator
         from questionnaires q left join users u on u.id = q.created_by
        where q.org_id = $1 and q.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    return rows[0]
  }

  async function list(orgId: number, query: { page: number; page_size: number; search?: string }) {
    const where = ['q.org_id = $1']
    const values: unknown[] = [orgId]
    if (query.search?.trim()) {
      values.push(`%${query.search.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`)
      where.push(`q.name ilike $${values.length}`)
    }
    const count = await pool.query<{ count: string }>(
      `select count(*) from questionnaires q where ${where.join(' and ')}`,
      values,
    )
    values.push(query.page_size, (query.page - 1) * query.page_size)
    const { rows } = await pool.query<SummaryRow>(
      `${SUMMARY_SQL} where ${where.join(' and ')} order by q.created_at desc, q.id desc
        limit $${values.length - 1} offset $${values.length}`,
      values,
    )
    return { count: Number(count.rows[0]?.count ?? 0), results: rows.map(toQuestionnaire) }
  }

  /* ------------------------------------------------------------ intake */

  async function queueAnalysis(id: number) {
    if (deps.jobs) {
      await deps.jobs.send(ANALYSE_JOB, { questionnaireId: id }, { retryLimit: 1, retryDelay: 5 })
      return
    }
    // no job runner (API-only tests): analyse in the background of this process
    void analyse(id).catch((error) => log.error({ err: error, id }, 'analysis failed'))
  }

  async function upload(
    orgId: number,
    userId: number,
    upload: { temp: TempFile; filename: string },
  ) {
    const name = displayName(upload.filename)
    if (upload.temp.size === 0)
      throw apiError(400, fillText(KNOWLEDGE_TEXTS.emptyFile, { name }), { code: 'empty_file' })
    const detected = await detectFileKind(upload.temp.path, name)
    if (!detected.ok && detected.reason === 'unsafe') {
      throw apiError(
        422,
        fillText(KNOWLEDGE_TEXTS.unsafePackage, { name, reason: detected.message }),
        {
          code: 'unsafe_file',
        },
      )
    }
    if (!detected.ok || !KINDS.includes(detected.kind as QuestionnaireKind)) {
      const claimed = kindFromName(name)
      const text =
        detected.ok === false && detected.reason === 'mismatch' && claimed
          ? fillText(KNOWLEDGE_TEXTS.typeMismatch, { name, kind: claimed.toUpperCase() })
          : fillText(QUESTIONNAIRE_TEXTS.unsupported, { name })
      throw apiError(415, text, { code: 'unsupported_media_type' })
    }
    const kind = detected.kind as QuestionnaireKind
    const client = await pool.connect()
    let id: number
    try {
      await client.query('begin')
      const license = await client.query<{ max_questionnaire: number }>(
        'select max_questionnaire from licenses where org_id = $1 for update',
        [orgId],
      )
      const limit = license.rows[0]?.max_questionnaire
      if (limit !== undefined && limit !== null && limit >= 0) {
        const used = await client.query<{ count: string }>(
          'select count(*) from questionnaires where org_id = $1',
          [orgId],
        )
        if (Number(used.rows[0]?.count ?? 0) + 1 > limit) {
          throw apiError(
            403,
            fillText(QUESTIONNAIRE_TEXTS.questionnairesLimit, { max_questionnaire: limit }),
            { code: 'license_limit' },
          )
        }
      }
      const key = await deps.storage.commit(orgId, upload.temp)
      const { rows } = await client.query<{ id: string }>(
        `insert into questionnaires (org_id, name, kind, mime, size_bytes, sha256, storage_key, status, progress_label, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, 'queued', 'Waiting to be analysed', $8) returning id`,
        [orgId, name, kind, MIMES[kind], upload.temp.size, upload.temp.sha256, key, userId],
      )
      id = Number(rows[0]?.id)
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    await queueAnalysis(id)
    return get(orgId, id)
  }

  async function setProgress(id: number, progress: number, label: string) {
    await pool
      .query(
        `update questionnaires set progress = $2, progress_label = $3, updated_at = now()
          where id = $1 and status = 'analyzing'`,
        [id, progress, label],
      )
      .catch(() => undefined)
  }

  /** The analysis job: reads the file, then replaces tabs and questions, keeping matched answers. */
  async function analyse(id: number) {
    const { rows } = await pool.query<{
      org_id: string
      name: string
      kind: QuestionnaireKind
      storage_key: string
      mappings: Record<string, TabMapping>
    }>(
      `update questionnaires set status = 'analyzing', progress = 5, progress_label = 'Reading the file',
          error = null, processing_started_at = now(), updated_at = now()
        where id = $1 and status = 'queued' returning org_id, name, kind, storage_key, mappings`,
      [id],
    )
    const row = rows[0]
    // deleted meanwhile, or already taken by another job for the same analysis (a re-queue)
    if (!row) return
    const orgId = Number(row.org_id)
    const fail = (message: string) =>
      pool.query(
        `update questionnaires set status = 'failed', error = $2, progress = 0, progress_label = null, updated_at = now()
          where id = $1`,
        [id, message],
      )
    try {
      const { tabs } = await readQuestionnaire(
        deps.storage.pathOf(orgId, row.storage_key),
        row.kind,
        { name: row.name, limits: deps.parseLimits, mappings: row.mappings },
      )
      const total = tabs.reduce((sum, tab) => sum + tab.questions.length, 0)
      if (!total && !tabs.some((tab) => tab.preview.length)) {
        await fail(QUESTIONNAIRE_TEXTS.noQuestions)
        return
      }
      await setProgress(id, 60, `Found ${total.toLocaleString('en')} questions; saving them`)
      await store(orgId, id, tabs)
    } catch (error) {
      if (error instanceof ParseError) {
        await fail(error.message)
        return
      }
      log.error({ err: error, id }, 'analysis failed')
      await fail(`${QUESTIONNAIRE_TEXTS.analysisFailed}. Re-analyze it to try again.`)
    }
  }

  async function store(orgId: number, id: number, tabs: AnalysedTab[]) {
    const client = await pool.connect()
    try {
      await client.query('begin')
      const locked = await client.query('select id from questionnaires where id = $1 for update', [
        id,
      ])
      if (!locked.rowCount) {
        await client.query('rollback')
        return
      }
      // answers of the previous analysis, by the question they belonged to
      const previous = await client.query<AnswerRowDb & { match_key: string; selected: boolean }>(
        `select a.*, qq.match_key, (a.rank = qq.selected_rank) as selected
           from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id
          where a.questionnaire_id = $1 and qq.deleted_at is null`,
        [id],
      )
      const kept = new Map<string, (AnswerRowDb & { selected: boolean })[]>()
      for (const answer of previous.rows) {
        const list = kept.get(answer.match_key) ?? []
        list.push(answer)
        kept.set(answer.match_key, list)
      }
      await client.query('delete from questionnaire_tabs where questionnaire_id = $1', [id])
      const tabIds: number[] = []
      for (const [position, tab] of tabs.entries()) {
        const inserted = await client.query<{ id: string }>(
          `insert into questionnaire_tabs (org_id, questionnaire_id, name, position, mapping, mapping_state, headers, preview)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [
            orgId,
            id,
            tab.name,
            position,
            tab.mapping ? JSON.stringify(tab.mapping) : null,
            tab.mappingState,
            JSON.stringify(tab.headers),
            JSON.stringify(tab.preview),
          ],
        )
        tabIds.push(Number(inserted.rows[0]?.id))
      }
      const questions = tabs.flatMap((tab, index) =>
        tab.questions.map((question) => ({ ...question, tabId: tabIds[index] as number })),
      )
      const questionIds: number[] = []
      for (let start = 0; start < questions.length; start += 2000) {
        const batch = questions.slice(start, start + 2000)
        const inserted = await client.query<{ id: string }>(
          `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, ref, text, section, target, vocabulary, match_key)
           select $1, $2, t.tab_id, t.position, t.ref, t.text, t.section, t.target, 
                  case when t.vocabulary is null then null else array(select jsonb_array_elements_text(t.vocabulary)) end,
                  t.match_key
             from unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::jsonb[], $10::text[])
               with ordinality as t(tab_id, position, ref, text, section, target, vocabulary, match_key, n)
            order by t.n
           returning id`,
          [
            orgId,
            id,
            batch.map((q) => q.tabId),
            batch.map((_, i) => start + i),
            batch.map((q) => q.ref),
            batch.map((q) => q.text),
            batch.map((q) => q.section),
            batch.map((q) => (q.target ? JSON.stringify(q.target) : null)),
            batch.map((q) => (q.vocabulary ? JSON.stringify(q.vocabulary) : null)),
            batch.map((q) => q.matchKey),
          ],
        )
        questionIds.push(...inserted.rows.map((r) => Number(r.id)))
      }
      // one answer row per question: the kept ones, or a pending placeholder
      const answers: {
        questionId: number
        rank: number
        state: AnswerState
      }[] = []
      const selected: { questionId: number; rank: number }[] = []
      questions.forEach((question, index) => {
        const questionId = questionIds[index] as number
        const previousAnswers = kept.get(question.matchKey)
        if (previousAnswers?.length) {
          kept.delete(question.matchKey)
          for (const answer of previousAnswers) {
            answers.push({ questionId, rank: answer.rank, state: answerState(answer) })
            if (answer.selected && answer.rank !== 0)
              selected.push({ questionId, rank: answer.rank })
          }
          if (!previousAnswers.some((answer) => answer.rank === 0))
            answers.push({ questionId, rank: 0, state: emptyState() })
        } else answers.push({ questionId, rank: 0, state: emptyState() })
      })
      for (let start = 0; start < answers.length; start += 2000) {
        const batch = answers.slice(start, start + 2000)
        await client.query(
          `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, comment, status, confidence, citations, note)
           select $1, $2, t.question_id, t.rank, t.text, t.choice, t.comment, t.status, t.confidence, t.citations, t.note
             from unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::float8[], $10::jsonb[], $11::text[])
               as t(question_id, rank, text, choice, comment, status, confidence, citations, note)`,
          [
            orgId,
            id,
            batch.map((a) => a.questionId),
            batch.map((a) => a.rank),
            batch.map((a) => a.state.text),
            batch.map((a) => a.state.choice),
            batch.map((a) => a.state.comment),
            batch.map((a) => a.state.status),
            batch.map((a) => a.state.confidence),
            batch.map((a) => JSON.stringify(a.state.citations)),
            batch.map((a) => a.state.note),
          ],
        )
      }
      for (const { questionId, rank } of selected) {
        await client.query('update questionnaire_questions set selected_rank = $2 where id = $1', [
          questionId,
          rank,
        ])
      }
      // earlier operations refer to rows that are gone: history before this point cannot be undone
      const hadAnalysis = previous.rowCount ?? 0
      if (hadAnalysis) {
        await client.query(
          `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count)
           values ($1, $2, 'reanalyze', $3, $4)`,
          [
            orgId,
            id,
            `Re-analysed the file: ${questions.length.toLocaleString('en')} questions`,
            questions.length,
          ],
        )
      }
      await client.query(
        `update questionnaires set status = 'ready', progress = 100, progress_label = null, error = null,
            analyzed_at = now(), updated_at = now(), revision = revision + 1 where id = $1`,
        [id],
      )
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  const emptyState = (): AnswerState => ({
    text: '',
    choice: null,
    comment: '',
    status: 'pending',
    confidence: null,
    citations: [],
    note: null,
  })

  async function reanalyze(
    orgId: number,
    id: number,
    mappings: { tab: string; mapping: TabMapping }[] = [],
  ) {
    const questionnaire = await get(orgId, id)
    if (questionnaire.status === 'analyzing' || questionnaire.status === 'queued')
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
    if (mappings.length) {
      const tabs = await pool.query<{ name: string }>(
        'select name from questionnaire_tabs where questionnaire_id = $1',
        [id],
      )
      const names = new Set(tabs.rows.map((tab) => tab.name))
      for (const { tab } of mappings) {
        if (!names.has(tab))
          throw apiError(400, fillText(QUESTIONNAIRE_TEXTS.tabNotFound, { tab }), {
            code: 'validation_error',
          })
      }
    }
    const overrides = Object.fromEntries(mappings.map(({ tab, mapping }) => [tab, mapping]))
    await pool.query(
      `update questionnaires set status = 'queued', progress = 0, progress_label = 'Waiting to be analysed',
          error = null, mappings = mappings || $3::jsonb, updated_at = now()
        where org_id = $1 and id = $2`,
      [orgId, id, JSON.stringify(overrides)],
    )
    await queueAnalysis(id)
    return get(orgId, id)
  }

  /* ------------------------------------------------------------ reading */

  async function tabs(orgId: number, id: number): Promise<Tab[]> {
    await get(orgId, id)
    const { rows } = await pool.query<{
      id: string
      name: string
      position: number
      mapping: TabMapping | null
      mapping_state: Tab['mapping_state']
      headers: string[]
      preview: string[][]
      questions: string
      answered: string
      approved: string
    }>(
      `select t.id, t.name, t.position, t.mapping, t.mapping_state, t.headers, t.preview,
              count(qq.id) as questions,
              count(qq.id) filter (where ${ANSWERED_SQL}) as answered,
              count(qq.id) filter (where a.status = 'approved') as approved
         from questionnaire_tabs t
         left join questionnaire_questions qq on qq.tab_id = t.id and qq.deleted_at is null
         left join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where t.org_id = $1 and t.questionnaire_id = $2
        group by t.id order by t.position`,
      [orgId, id],
    )
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      position: row.position,
      questions: Number(row.questions),
      answered: Number(row.answered),
      approved: Number(row.approved),
      mapping: row.mapping,
      mapping_state: row.mapping_state,
      headers: row.headers,
      preview: row.preview,
    }))
  }

  interface QuestionDb {
    id: string
    tab_id: string
    tab: string
    position: number
    ref: string | null
    text: string
    section: string | null
    target: AnswerTarget | null
    vocabulary: string[] | null
    selected_rank: number
  }

  async function questionRows(
    orgId: number,
    questionnaireId: number,
    options: { tab?: number; questionIds?: number[]; filter?: AnswerFilter } = {},
    client: Queryable = pool,
  ): Promise<QuestionRow[]> {
    const where = ['qq.org_id = $1', 'qq.questionnaire_id = $2', 'qq.deleted_at is null']
    const values: unknown[] = [orgId, questionnaireId]
    if (options.tab) {
      values.push(options.tab)
      where.push(`qq.tab_id = $${values.length}`)
    }
    if (options.questionIds) {
      values.push(options.questionIds)
      where.push(`qq.id = any($${values.length}::bigint[])`)
    }
    const filters: Record<AnswerFilter, string | null> = {
      all: null,
      unanswered: `not ${ANSWERED_SQL}`,
      low_confidence: `${ANSWERED_SQL} and a.status <> 'approved' and coalesce(a.confidence, 1) < 0.5`,
      needs_review: `${ANSWERED_SQL} and a.status <> 'approved'`,
      approved: `a.status = 'approved'`,
    }
    const filter = filters[options.filter ?? 'all']
    const { rows: questions } = await client.query<QuestionDb>(
      `select qq.id, qq.tab_id, t.name as tab, qq.position, qq.ref, qq.text, qq.section, qq.target,
              qq.vocabulary, qq.selected_rank
         from questionnaire_questions qq
         join questionnaire_tabs t on t.id = qq.tab_id
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where ${where.join(' and ')}${filter ? ` and ${filter}` : ''}
        order by qq.position`,
      values,
    )
    if (!questions.length) return []
    const { rows: answers } = await client.query<AnswerRowDb>(
      `select a.id, a.question_id, a.rank, a.text, a.choice, a.comment, a.status, a.confidence,
              a.citations, a.note, a.updated_at
         from questionnaire_answers a
        where a.org_id = $1 and a.question_id = any($2::bigint[])
        order by a.question_id, a.rank`,
      [orgId, questions.map((q) => q.id)],
    )
    const byQuestion = new Map<string, Answer[]>()
    for (const row of answers) {
      // ranks a later generation left empty are not candidates
      if (row.rank > 0 && row.status === 'pending' && !row.text && row.choice === null) continue
      const list = byQuestion.get(row.question_id) ?? []
      list.push(toAnswer(row))
      byQuestion.set(row.question_id, list)
    }
    return questions.map((q) => {
      const candidates = byQuestion.get(q.id) ?? []
      const answer = candidates.find((c) => c.rank === q.selected_rank) ??
        candidates[0] ?? {
          id: 0,
          question_id: Number(q.id),
          rank: 0,
          text: '',
          choice: null,
          comment: '',
          status: 'pending' as const,
          confidence: null,
          band: null,
          citations: [],
          note: null,
          updated_at: new Date(0).toISOString(),
        }
      return {
        id: Number(q.id),
        tab_id: Number(q.tab_id),
        tab: q.tab,
        position: q.position,
        ref: q.ref,
        text: q.text,
        section: q.section,
        answer_cell: targetLabel(q.target),
        vocabulary: q.vocabulary,
        answer,
        candidates,
      }
    })
  }

  async function answers(orgId: number, id: number, query: { tab?: number; filter: AnswerFilter }) {
    const questionnaire = await get(orgId, id)
    return { questionnaire, questions: await questionRows(orgId, id, query) }
  }

  async function answersByTab(orgId: number, id: number) {
    const [tabList, rows] = await Promise.all([tabs(orgId, id), questionRows(orgId, id)])
    return {
      tabs: tabList.map((tab) => ({
        tab,
        questions: rows.filter((row) => row.tab_id === tab.id),
      })),
    }
  }

  /* ------------------------------------------------------------ operations */

  const operationColumns = `o.id, o.kind, o.summary, o.question_count, o.created_at, o.undone_at,
    u.id as user_id, u.first_name, u.last_name, u.email`

  interface OperationDb {
    id: string
    kind: OperationKind
    summary: string
    question_count: number
    created_at: Date
    undone_at: Date | null
    user_id: string | null
    first_name: string | null
    last_name: string | null
    email: string | null
  }

  async function operations(orgId: number, id: number): Promise<Operation[]> {
    await get(orgId, id)
    const { rows } = await pool.query<OperationDb>(
      `select ${operationColumns} from questionnaire_operations o left join users u on u.id = o.created_by
        where o.org_id = $1 and o.questionnaire_id = $2 order by o.id desc limit 200`,
      [orgId, id],
    )
    const latest = rows.find((row) => !row.undone_at)
    return rows.map((row) => toOperation(row, row === latest && row.kind !== 'reanalyze'))
  }

  const toOperation = (row: OperationDb, canUndo: boolean): Operation => ({
    id: Number(row.id),
    kind: row.kind,
    summary: row.summary,
    questions: row.question_count,
    by: row.user_id
      ? {
          id: String(row.user_id),
          name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || (row.email ?? ''),
          email: row.email ?? '',
        }
      : null,
    created_at: row.created_at.toISOString(),
    undone: row.undone_at !== null,
    can_undo: canUndo,
  })

  /** Runs a change in one transaction: locks the questionnaire, records the operation, bumps the revision. */
  async function change(
    orgId: number,
    questionnaireId: number,
    userId: number | null,
    work: (client: Queryable) => Promise<{
      kind: OperationKind
      summary: string
      changes: Change[]
    } | null>,
  ) {
    const client = await pool.connect()
    let operationId: number | null = null
    let questionIds: number[] = []
    try {
      await client.query('begin')
      const locked = await client.query<{ status: QuestionnaireStatus }>(
        'select status from questionnaires where org_id = $1 and id = $2 for update',
        [orgId, questionnaireId],
      )
      if (!locked.rowCount) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
      const status = locked.rows[0]?.status
      if (status === 'analyzing' || status === 'queued')
        throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
      const result = await work(client)
      if (result?.changes.length) {
        const answerIds = result.changes.filter((c) => c.t === 'a').map((c) => c.id)
        const fromAnswers = answerIds.length
          ? (
              await client.query<{ question_id: string }>(
                'select distinct question_id from questionnaire_answers where id = any($1::bigint[])',
                [answerIds],
              )
            ).rows.map((r) => Number(r.question_id))
          : []
        questionIds = [
          ...new Set([
            ...fromAnswers,
            ...result.changes.filter((c) => c.t === 'q').map((c) => c.id),
          ]),
        ]
        const inserted = await client.query<{ id: string }>(
          `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count, changes, created_by)
           values ($1, $2, $3, $4, $5, $6, $7) returning id`,
          [
            orgId,
            questionnaireId,
            result.kind,
            result.summary,
            questionIds.length,
            JSON.stringify(result.changes),
            userId,
          ],
        )
        operationId = Number(inserted.rows[0]?.id)
        await client.query(
          'update questionnaires set revision = revision + 1, updated_at = now() where id = $1',
          [questionnaireId],
        )
      }
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    return changeResponse(orgId, questionnaireId, questionIds, operationId)
  }

  async function changeResponse(
    orgId: number,
    questionnaireId: number,
    questionIds: number[],
    operationId: number | null,
  ) {
    const [questionnaire, questions] = await Promise.all([
      get(orgId, questionnaireId),
      questionIds.length
        ? questionRows(orgId, questionnaireId, { questionIds })
        : Promise.resolve([]),
    ])
    let operation: Operation | null = null
    if (operationId) {
      const { rows } = await pool.query<OperationDb>(
        `select ${operationColumns} from questionnaire_operations o left join users u on u.id = o.created_by where o.id = $1`,
        [operationId],
      )
      if (rows[0]) operation = toOperation(rows[0], true)
    }
    return { questionnaire, questions, operation }
  }

  /** Writes an answer's new state; returns the change to record. */
  async function writeAnswer(
    client: Queryable,
    id: number,
    before: AnswerState,
    after: AnswerState,
    userId: number | null,
  ): Promise<Change> {
    await client.query(
      `update questionnaire_answers set text = $2, choice = $3, comment = $4, status = $5, confidence = $6,
          citations = $7, note = $8, updated_by = $9, updated_at = now() where id = $1`,
      [
        id,
        after.text,
        after.choice,
        after.comment,
        after.status,
        after.confidence,
        JSON.stringify(after.citations),
        after.note,
        userId,
      ],
    )
    return { t: 'a', id, before, after }
  }

  interface LockedAnswer extends AnswerRowDb {
    questionnaire_id: string
    ref: string | null
    position: number
    vocabulary: string[] | null
    selected_rank: number
  }

  /** The answer (of the caller's org) and its question; a missing one is a 404. */
  async function findAnswer(orgId: number, answerId: number) {
    const { rows } = await pool.query<{ questionnaire_id: string }>(
      `select a.questionnaire_id from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return Number(row.questionnaire_id)
  }

  async function lockAnswer(client: Queryable, orgId: number, answerId: number) {
    const { rows } = await client.query<LockedAnswer>(
      `select a.id, a.question_id, a.rank, a.text, a.choice, a.comment, a.status, a.confidence, a.citations,
              a.note, a.updated_at, a.questionnaire_id, qq.ref, qq.position, qq.vocabulary, qq.selected_rank
         from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null
        for update of a`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return row
  }

  const label = (row: { ref: string | null; position: number }) =>
    row.ref ?? `question ${row.position + 1}`

  /** max_answers (TI6): called under the questionnaire lock; another org's answers never count. */
  async function checkAnswerLimit(client: Queryable, orgId: number, adding: number) {
    if (adding <= 0) return
    const license = await client.query<{ max_answers: number }>(
      'select max_answers from licenses where org_id = $1 for update',
      [orgId],
    )
    const limit = license.rows[0]?.max_answers
    if (limit === undefined || limit === null || limit <= 0) return
    const used = await client.query<{ count: string }>(
      `select count(*) from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id and a.rank = qq.selected_rank
        where a.org_id = $1 and qq.deleted_at is null and ${ANSWERED_SQL}`,
      [orgId],
    )
    if (Number(used.rows[0]?.count ?? 0) + adding > limit) {
      throw apiError(403, fillText(QUESTIONNAIRE_TEXTS.answersLimit, { max_answers: limit }), {
        code: 'license_limit',
      })
    }
  }

  function checkChoice(vocabulary: string[] | null, choice: string | null) {
    if (choice === null || !vocabulary?.length) return
    if (!vocabulary.includes(choice))
      throw apiError(400, fillText(QUESTIONNAIRE_TEXTS.choiceNotAllowed, { choice }), {
        code: 'validation_error',
      })
  }

  async function edit(orgId: number, userId: number, answerId: number, body: AnswerEdit) {
    const questionnaireId = await findAnswer(orgId, answerId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      const before = answerState(row)
      const choice = body.choice === undefined ? before.choice : body.choice?.trim() || null
      checkChoice(row.vocabulary, choice)
      const after: AnswerState = {
        ...before,
        text: body.text ?? before.text,
        choice,
        comment: body.comment ?? before.comment,
      }
      if (
        after.text === before.text &&
        after.choice === before.choice &&
        after.comment === before.comment
      )
        return null
      after.status = after.text.trim() || after.choice ? 'edited' : 'pending'
      if (after.status === 'pending') after.confidence = null
      if (row.rank === row.selected_rank && !isAnswered(before) && isAnswered(after))
        await checkAnswerLimit(client, orgId, 1)
      return {
        kind: 'edit',
        summary: `Edited the answer to ${label(row)}`,
        changes: [await writeAnswer(client, answerId, before, after, userId)],
      }
    })
  }

  async function approve(orgId: number, userId: number, answerId: number) {
    const questionnaireId = await findAnswer(orgId, answerId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      const before = answerState(row)
      if (!before.text.trim() && !before.choice)
        throw apiError(400, QUESTIONNAIRE_TEXTS.emptyAnswer, { code: 'validation_error' })
      const changes: Change[] = []
      if (row.rank !== row.selected_rank) {
        // approving a candidate chooses it
        const current = await client.query<AnswerRowDb>(
          'select * from questionnaire_answers where question_id = $1 and rank = $2',
          [row.question_id, row.selected_rank],
        )
        if (current.rows[0] && !isAnswered(answerState(current.rows[0])))
          await checkAnswerLimit(client, orgId, 1)
        await client.query('update questionnaire_questions set selected_rank = $2 where id = $1', [
          row.question_id,
          row.rank,
        ])
        changes.push({
          t: 'q',
          id: Number(row.question_id),
          before: { selected_rank: row.selected_rank, deleted: false },
          after: { selected_rank: row.rank, deleted: false },
        })
      } else if (!isAnswered(before)) await checkAnswerLimit(client, orgId, 1)
      if (before.status === 'approved' && !changes.length) return null
      changes.push(
        await writeAnswer(client, answerId, before, { ...before, status: 'approved' }, userId),
      )
      return { kind: 'approve', summary: `Approved the answer to ${label(row)}`, changes }
    })
  }

  async function unApprove(orgId: number, userId: number, answerId: number) {
    const questionnaireId = await findAnswer(orgId, answerId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      const before = answerState(row)
      if (before.status !== 'approved') return null
      return {
        kind: 'un_approve',
        summary: `Withdrew the approval of the answer to ${label(row)}`,
        changes: [
          await writeAnswer(client, answerId, before, { ...before, status: 'edited' }, userId),
        ],
      }
    })
  }

  async function questionOf(orgId: number, questionId: number) {
    const { rows } = await pool.query<{ questionnaire_id: string }>(
      `select questionnaire_id from questionnaire_questions where org_id = $1 and id = $2 and deleted_at is null`,
      [orgId, questionId],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
    return Number(rows[0].questionnaire_id)
  }

  async function select(orgId: number, userId: number, questionId: number, answerId: number) {
    const questionnaireId = await questionOf(orgId, questionId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const { rows } = await client.query<{
        rank: number
        selected_rank: number
        ref: string | null
        position: number
      }>(
        `select a.rank, qq.selected_rank, qq.ref, qq.position from questionnaire_answers a
           join questionnaire_questions qq on qq.id = a.question_id
          where a.org_id = $1 and a.id = $2 and a.question_id = $3 and qq.deleted_at is null
          for update of qq`,
        [orgId, answerId, questionId],
      )
      const row = rows[0]
      if (!row) throw notFound(QUESTIONNAIRE_TEXTS.candidateNotFound)
      if (row.rank === row.selected_rank) return null
      const current = await client.query<AnswerRowDb>(
        'select * from questionnaire_answers where question_id = $1 and rank = $2',
        [questionId, row.selected_rank],
      )
      const chosen = await client.query<AnswerRowDb>(
        'select * from questionnaire_answers where id = $1',
        [answerId],
      )
      const wasAnswered = current.rows[0] ? isAnswered(answerState(current.rows[0])) : false
      const willBe = chosen.rows[0] ? isAnswered(answerState(chosen.rows[0])) : false
      if (!wasAnswered && willBe) await checkAnswerLimit(client, orgId, 1)
      await client.query('update questionnaire_questions set selected_rank = $2 where id = $1', [
        questionId,
        row.rank,
      ])
      return {
        kind: 'select',
        summary: `Chose candidate ${row.rank + 1} for ${label(row)}`,
        changes: [
          {
            t: 'q',
            id: questionId,
            before: { selected_rank: row.selected_rank, deleted: false },
            after: { selected_rank: row.rank, deleted: false },
          },
        ],
      }
    })
  }

  async function deleteQuestion(orgId: number, userId: number, questionId: number) {
    const questionnaireId = await questionOf(orgId, questionId)
    const result = await change(orgId, questionnaireId, userId, async (client) => {
      const { rows } = await client.query<{
        selected_rank: number
        ref: string | null
        position: number
      }>(
        `update questionnaire_questions set deleted_at = now()
          where org_id = $1 and id = $2 and deleted_at is null returning selected_rank, ref, position`,
        [orgId, questionId],
      )
      const row = rows[0]
      if (!row) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
      return {
        kind: 'delete_question',
        summary: `Deleted ${label(row)}`,
        changes: [
          {
            t: 'q',
            id: questionId,
            before: { selected_rank: row.selected_rank, deleted: false },
            after: { selected_rank: row.selected_rank, deleted: true },
          },
        ],
      }
    })
    return { ...result, deleted_question_id: questionId }
  }

  /** Reverts the latest operation that has not been undone; one undo per call. */
  async function undo(orgId: number, userId: number, questionnaireId: number) {
    await get(orgId, questionnaireId)
    const client = await pool.connect()
    let questionIds: number[] = []
    let operationId: number | null = null
    try {
      await client.query('begin')
      await client.query('select id from questionnaires where org_id = $1 and id = $2 for update', [
        orgId,
        questionnaireId,
      ])
      const { rows } = await client.query<{ id: string; kind: OperationKind; changes: Change[] }>(
        `select id, kind, changes from questionnaire_operations
          where org_id = $1 and questionnaire_id = $2 and undone_at is null
          order by id desc limit 1`,
        [orgId, questionnaireId],
      )
      const operation = rows[0]
      if (!operation || operation.kind === 'reanalyze')
        throw apiError(409, QUESTIONNAIRE_TEXTS.nothingToUndo, { code: 'conflict' })
      const answered: { before: boolean; after: boolean }[] = []
      const touched = operation.changes.filter((c) => c.t === 'a').map((c) => c.id)
      if (touched.length) {
        const { rows: owners } = await client.query<{ question_id: string }>(
          'select distinct question_id from questionnaire_answers where id = any($1::bigint[])',
          [touched],
        )
        questionIds.push(...owners.map((r) => Number(r.question_id)))
      }
      for (const item of [...operation.changes].reverse()) {
        if (item.t === 'a') {
          if (item.before === null) {
            await client.query('delete from questionnaire_answers where id = $1 and rank > 0', [
              item.id,
            ])
            continue
          }
          answered.push({ before: isAnswered(item.after), after: isAnswered(item.before) })
          await writeAnswer(client, item.id, item.after, item.before, userId)
        } else {
          await client.query(
            `update questionnaire_questions set selected_rank = $2,
                deleted_at = case when $3 then coalesce(deleted_at, now()) else null end
              where id = $1`,
            [item.id, item.before.selected_rank, item.before.deleted],
          )
          questionIds.push(item.id)
        }
      }
      // undoing may bring answers back; the answers limit still holds
      const adding = answered.filter((a) => !a.before && a.after).length
      const removing = answered.filter((a) => a.before && !a.after).length
      await checkAnswerLimit(client, orgId, adding - removing)
      await client.query('update questionnaire_operations set undone_at = now() where id = $1', [
        operation.id,
      ])
      await client.query(
        'update questionnaires set revision = revision + 1, updated_at = now() where id = $1',
        [questionnaireId],
      )
      questionIds = [...new Set(questionIds)]
      operationId = Number(operation.id)
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    const response = await changeResponse(orgId, questionnaireId, questionIds, null)
    return { ...response, undone_operation_id: operationId }
  }

  /* ------------------------------------------------------------ files */

  async function remove(orgId: number, ids: number[]) {
    const files = await pool.query<{ org_id: string; storage_key: string }>(
      `select f.org_id, f.storage_key from filled_files f
         join questionnaires q on q.id = f.questionnaire_id
        where q.org_id = $1 and q.id = any($2::bigint[])`,
      [orgId, ids],
    )
    const { rows } = await pool.query<{ storage_key: string }>(
      'delete from questionnaires where org_id = $1 and id = any($2::bigint[]) returning storage_key',
      [orgId, ids],
    )
    for (const key of [...rows, ...files.rows].map((row) => row.storage_key))
      await deps.storage.delete(orgId, key).catch(() => undefined)
    return rows.length
  }

  async function original(orgId: number, id: number) {
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
  async function reap(staleMs: number) {
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
      [Math.max(staleMs, REQUEUE_AFTER_MS)],
    )
    for (const row of queued) await queueAnalysis(Number(row.id))
    return rowCount ?? 0
  }

  return {
    get,
    stamp,
    list,
    upload,
    analyse,
    reanalyze,
    tabs,
    answers,
    answersByTab,
    questionRows,
    operations,
    edit,
    approve,
    unApprove,
    select,
    deleteQuestion,
    undo,
    change,
    writeAnswer,
    checkAnswerLimit,
    remove,
    original,
    references,
    reap,
  }
}

export type QuestionnaireService = ReturnType<typeof createQuestionnaireService>
