import { FILLED_STATUSES } from '../../../contract/answers.ts'
import {
  type Answer,
  type AnswerFilter,
  type AnswerPart,
  type AnswerSource,
  type AnswerStatus,
  CARRIED_PREFIX,
  type Citation,
  confidenceBand,
  type Operation,
  type OperationKind,
  type Questionnaire,
  type QuestionnaireFileKind,
  type QuestionnaireKind,
  type QuestionnaireStatus,
  type SourceChange,
} from '../../../contract/questionnaires.ts'
import type { WorkStatus } from '../../../contract/work.ts'
import { CONFLICT_PREFIX } from '../../answering/age.ts'
import { isOtherProductNote } from '../../answering/products.ts'
import { THIRD_PARTY_PREFIX } from '../../answering/third-party.ts'
import { TRANSFERRED } from '../../answering/transfer.ts'
import type { Database } from '../../db/index.ts'
import { personOf, type UserCols } from '../../db/people.ts'
import type { ParseLimits } from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { Storage } from '../../storage/index.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'

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

export type Queryable = Pick<Database['pool'], 'query'>

export const KINDS: QuestionnaireFileKind[] = ['xlsx', 'csv', 'docx', 'pdf']
export const MIMES: Record<QuestionnaireKind, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  portal: 'text/html',
}

/** An answer counts as answered when it has text or a dropdown value and is not a placeholder. */
export const ANSWERED_SQL = `(a.status in ('generated', 'edited', 'approved', 'existing') and (a.text <> '' or a.choice is not null))`

/** The workspace's filters, over a question `qq` and its answer in use `a`. */
export const ANSWER_FILTER_SQL: Record<AnswerFilter, string | null> = {
  all: null,
  unanswered: `not ${ANSWERED_SQL}`,
  low_confidence: `${ANSWERED_SQL} and a.status <> 'approved' and coalesce(a.confidence, 1) < 0.5`,
  needs_review: `${ANSWERED_SQL} and a.status <> 'approved'`,
  approved: `a.status = 'approved'`,
  // issue 38: the notes of answers that rest on another product's or another party's word
  not_ours: `(a.note like 'From %’s answers: check it holds for %' or a.note like '${THIRD_PARTY_PREFIX} %')`,
}

/**
 * A questionnaire's counts as a query selects them (PostgreSQL's counts come as text): its
 * questions, those answered (`ANSWERED_SQL`) and those approved. The list and Home's dashboard
 * count alike.
 */
export interface AnswerCountCols {
  questions: string
  answered: string
  approved: string
}

/** Those counts as the API shows them. */
export const answerCountsOf = (row: AnswerCountCols) => ({
  questions: Number(row.questions),
  answered: Number(row.answered),
  approved: Number(row.approved),
})

export const SUMMARY_SQL = `
  select q.id, q.name, q.kind, q.size_bytes, q.status, q.progress, q.progress_label, q.error, q.revision,
         q.created_at, q.updated_at, u.id as user_id, u.first_name, u.last_name, u.email,
         coalesce(c.questions, 0) as questions, coalesce(c.answered, 0) as answered,
         coalesce(c.approved, 0) as approved,
         (select count(*) from questionnaire_tabs t where t.questionnaire_id = q.id and t.mapping_state = 'unsure') as unsure_tabs,
         coalesce((select o.kind <> all(array['reanalyze', 'portal_read', 'portal_fill']) from questionnaire_operations o
                    where o.questionnaire_id = q.id and o.undone_at is null
                    order by o.id desc limit 1), false) as can_undo,
         q.owner_id, ou.first_name as owner_first_name, ou.last_name as owner_last_name, ou.email as owner_email,
         q.customer_id, cu.name as customer_name, q.requester, q.due_date::text as due_date, q.work_status, q.product_id, q.portal_url,
         (q.due_date < current_date and q.work_status <> 'sent') as overdue
    from questionnaires q
    left join users u on u.id = q.created_by
    left join users ou on ou.id = q.owner_id
    left join customers cu on cu.id = q.customer_id
    left join lateral (
      select count(*) as questions,
             count(*) filter (where ${ANSWERED_SQL}) as answered,
             count(*) filter (where a.status = 'approved') as approved
        from questionnaire_questions qq
        join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
       where qq.questionnaire_id = q.id and qq.deleted_at is null
    ) c on true`

export interface SummaryRow extends UserCols, AnswerCountCols {
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
  unsure_tabs: string
  can_undo: boolean
  owner_id: string | null
  owner_first_name: string | null
  owner_last_name: string | null
  owner_email: string | null
  customer_id: string | null
  customer_name: string | null
  requester: string | null
  due_date: string | null
  work_status: WorkStatus
  overdue: boolean | null
  product_id: string | null
  portal_url: string | null
}

export const toQuestionnaire = (row: SummaryRow): Questionnaire => ({
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
  ...answerCountsOf(row),
  unsure_tabs: Number(row.unsure_tabs),
  can_export_original: row.kind !== 'pdf' && row.kind !== 'portal',
  portal_url: row.portal_url,
  can_undo: row.can_undo,
  revision: row.revision,
  added_by: personOf(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  owner: personOf({
    user_id: row.owner_id,
    first_name: row.owner_first_name,
    last_name: row.owner_last_name,
    email: row.owner_email,
  }),
  customer:
    row.customer_id && row.customer_name
      ? { id: Number(row.customer_id), name: row.customer_name }
      : null,
  requester: row.requester,
  due_date: row.due_date,
  work_status: row.work_status,
  overdue: row.overdue === true,
  product_id:
    row.product_id === null || row.product_id === undefined ? null : Number(row.product_id),
})

export interface AnswerRowDb extends AnswerState {
  id: string
  question_id: string
  rank: number
  updated_at: Date
  /** The parts the drafted answer states (read by the answers list only). */
  parts?: AnswerPart[] | null
  /** A quoted document that changed since (read by the answers list only). */
  source_change?: SourceChange | null
  /** Bumped by every change (issue 29); read by the answers list and the locked answer. */
  version?: number
  /** Who changed it last (read by the answers list only). */
  updated_by_id?: string | null
  updated_first_name?: string | null
  updated_last_name?: string | null
  updated_email?: string | null
}

/** The highest confidence of an answer whose quoted document changed since: never High. */
export const SOURCE_CHANGED_CEILING = 0.79

export const toAnswer = (row: AnswerRowDb): Answer => {
  const changed = row.source_change ?? null
  const origin = originOf(row)
  // a quote its document no longer holds drops the answer out of High until someone checks it
  const confidence =
    changed && row.confidence !== null
      ? Math.min(row.confidence, SOURCE_CHANGED_CEILING)
      : row.confidence
  return {
    id: Number(row.id),
    question_id: Number(row.question_id),
    rank: row.rank,
    text: row.text,
    choice: row.choice,
    comment: row.comment,
    status: row.status,
    confidence,
    band: row.status === 'no_answer' || origin === 'person' ? null : confidenceBand(confidence),
    citations: row.citations,
    note: row.note,
    origin,
    ...(origin === 'machine' ? drawnFrom(row) : {}),
    freshness: null,
    flags: [
      ...(changed ? (['source_changed'] as const) : []),
      ...(row.note?.startsWith(CONFLICT_PREFIX) ? (['conflict'] as const) : []),
      ...(row.note?.startsWith(CARRIED_PREFIX) ? (['carried_forward'] as const) : []),
      ...(isOtherProductNote(row.note) ? (['other_product'] as const) : []),
      ...(row.note?.startsWith(THIRD_PARTY_PREFIX) ? (['third_party'] as const) : []),
    ],
    ...(changed ? { source_change: changed } : {}),
    version: row.version ?? 1,
    ...(row.updated_by_id !== undefined
      ? {
          updated_by: personOf({
            user_id: row.updated_by_id,
            first_name: row.updated_first_name ?? null,
            last_name: row.updated_last_name ?? null,
            email: row.updated_email ?? null,
          }),
        }
      : {}),
    updated_at: row.updated_at.toISOString(),
  }
}

/**
 * Who wrote an answer (issue 39): a person's text or choice has no machine confidence (an edit
 * clears it; the history keeps the draft's); nothing yet while pending or generating.
 */
export function originOf(row: Pick<AnswerRowDb, 'status' | 'confidence' | 'text' | 'choice'>) {
  if (row.status === 'pending' || row.status === 'generating') return null
  if (row.status === 'no_answer' || row.status === 'failed') return 'machine' as const
  const written = Boolean(row.text.trim() || row.choice)
  return written && row.confidence === null ? ('person' as const) : ('machine' as const)
}

/**
 * What a machine's answer was drawn from, for the reviewer: a transferred library answer says so
 * in its note; otherwise its first source's kind.
 */
function drawnFrom(row: AnswerRowDb): { drawn_from?: AnswerSource } {
  if (!['generated', 'approved', 'edited'].includes(row.status)) return {}
  if (row.note === TRANSFERRED) return { drawn_from: 'transferred' }
  // text a person pasted as evidence is theirs, not a document's (issue 39)
  if (row.citations[0]?.source === 'evidence') return { drawn_from: 'evidence' }
  const kind = row.citations[0]?.kind
  return kind ? { drawn_from: kind } : {}
}

/** The state of an answer an operation records before and after. */
export interface AnswerState {
  text: string
  choice: string | null
  comment: string
  status: AnswerStatus
  confidence: number | null
  citations: Citation[]
  note: string | null
}
export interface QuestionState {
  selected_rank: number
  deleted: boolean
}
export type Change =
  /** before is null for a candidate the change created; undo removes it. */
  | { t: 'a'; id: number; before: AnswerState | null; after: AnswerState }
  | { t: 'q'; id: number; before: QuestionState; after: QuestionState }

export const answerState = (row: AnswerRowDb | AnswerState): AnswerState => ({
  text: row.text,
  choice: row.choice,
  comment: row.comment,
  status: row.status,
  confidence: row.confidence,
  citations: row.citations,
  note: row.note,
})

export const isAnswered = (state: AnswerState) =>
  FILLED_STATUSES.includes(state.status) && (state.text !== '' || state.choice !== null)

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
export const REQUEUE_AFTER_MS = 30_000

/** An answer's state as statement values, in column order: text, choice, comment, status,
 * confidence, citations (JSON), note. */
export const stateValues = (state: AnswerState) => [
  state.text,
  state.choice,
  state.comment,
  state.status,
  state.confidence,
  JSON.stringify(state.citations),
  state.note,
]

export const emptyState = (): AnswerState => ({
  text: '',
  choice: null,
  comment: '',
  status: 'pending',
  confidence: null,
  citations: [],
  note: null,
})

export const operationColumns = `o.id, o.kind, o.summary, o.question_count, o.created_at, o.undone_at,
  u.id as user_id, u.first_name, u.last_name, u.email`

export interface OperationDb {
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

export const toOperation = (row: OperationDb, canUndo: boolean): Operation => ({
  id: Number(row.id),
  kind: row.kind,
  summary: row.summary,
  questions: row.question_count,
  by: personOf(row),
  created_at: row.created_at.toISOString(),
  undone: row.undone_at !== null,
  can_undo: canUndo,
})

export const label = (row: { ref: string | null; position: number }) =>
  row.ref ?? `question ${row.position + 1}`
