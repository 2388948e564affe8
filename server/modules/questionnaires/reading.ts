import { daysBetween, freshnessOf } from '../../../contract/freshness.ts'
import type {
  Answer,
  AnswerFilter,
  AnswerPart,
  CarriedFrom,
  QuestionRow,
  Tab,
  TabMapping,
} from '../../../contract/questionnaires.ts'
import type { ReviewState } from '../../../contract/work.ts'
import { assuranceOf } from '../../answering/calibration.ts'
import { partsOf } from '../../answering/parts.ts'
import { personOf } from '../../db/people.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'
import { cellNeedsOf } from './completeness.ts'
import type { Records } from './records.ts'
import {
  ANSWER_FILTER_SQL,
  ANSWERED_SQL,
  type AnswerRowDb,
  type Queryable,
  type QuestionnaireDeps,
  targetLabel,
  toAnswer,
} from './shared.ts'

/** The library entry an answer drawn from the library rests on: its first library citation. */
const libraryCitation = (answer: Answer) =>
  answer.drawn_from === 'library' || answer.drawn_from === 'transferred'
    ? (answer.citations.find((citation) => citation.kind === 'library') ?? null)
    : null

/**
 * Reading a questionnaire's tabs, questions and answers (the review grid).
 */
export function createReading(deps: QuestionnaireDeps, records: Records) {
  const { pool } = deps.database

  const { get } = records

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
    carried: CarriedFrom | null
    assignee_id: string | null
    first_name: string | null
    last_name: string | null
    email: string | null
    assignment_due_date: string | null
    review_state: ReviewState
    comments: string
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
    const filter = ANSWER_FILTER_SQL[options.filter ?? 'all']
    const { rows: questions } = await client.query<QuestionDb>(
      `select qq.id, qq.tab_id, t.name as tab, qq.position, qq.ref, qq.text, qq.section, qq.target,
              qq.vocabulary, qq.selected_rank, qq.carried, qq.assignee_id, u.first_name, u.last_name,
              u.email, qq.assignment_due_date::text as assignment_due_date, qq.review_state,
              (select count(*) from question_comments c
                where c.question_id = qq.id and c.parent_id is null and c.resolved_at is null
                  and c.deleted_at is null) as comments
         from questionnaire_questions qq
         join questionnaire_tabs t on t.id = qq.tab_id
         left join users u on u.id = qq.assignee_id
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where ${where.join(' and ')}${filter ? ` and ${filter}` : ''}
        order by qq.position`,
      values,
    )
    if (!questions.length) return []
    const { rows: answers } = await client.query<AnswerRowDb>(
      `select a.id, a.question_id, a.rank, a.text, a.choice, a.comment, a.status, a.confidence,
              a.citations, a.note, a.parts, a.source_change, a.version, a.updated_at,
              a.updated_by as updated_by_id, ub.first_name as updated_first_name,
              ub.last_name as updated_last_name, ub.email as updated_email
         from questionnaire_answers a
         left join users ub on ub.id = a.updated_by
        where a.org_id = $1 and a.question_id = any($2::bigint[])
        order by a.question_id, a.rank`,
      [orgId, questions.map((q) => q.id)],
    )
    const byQuestion = new Map<string, Answer[]>()
    const drafted = new Map<number, AnswerPart[]>()
    const ages = await libraryAges(client, orgId, answers.map(toAnswer))
    for (const row of answers) {
      if (row.parts?.length) drafted.set(Number(row.id), row.parts)
      // ranks a later generation left empty are not candidates
      if (row.rank > 0 && row.status === 'pending' && !row.text && row.choice === null) continue
      const list = byQuestion.get(row.question_id) ?? []
      list.push(aged(toAnswer(row), ages))
      byQuestion.set(row.question_id, list)
    }
    return questions.map((q, index) => {
      const before = questions[index - 1]
      const needs = cellNeedsOf(q.target, q.vocabulary)
      const reworded = q.carried?.kind === 'changed'
      const candidates = explained(
        q.text,
        before?.tab_id === q.tab_id ? before.text : null,
        byQuestion.get(q.id) ?? [],
        drafted,
      ).map((answer) =>
        reworded ? { ...answer, flags: [...answer.flags, 'question_changed' as const] } : answer,
      )
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
          origin: null,
          freshness: null,
          flags: [],
          version: 0,
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
        ...(needs ? { cell_needs: needs } : {}),
        vocabulary: q.vocabulary,
        answer,
        candidates,
        ...(q.carried ? { carried_from: q.carried } : {}),
        assignment: {
          assignee: personOf({ user_id: q.assignee_id, ...q }),
          due_date: q.assignment_due_date,
          review_state: q.review_state,
          comments: Number(q.comments),
        },
      }
    })
  }

  /**
   * The library entries that answers drawn from the library cite (their first library citation):
   * a Q&A item's last review, owner and cycle; a completed questionnaire's upload date and the
   * organisation's cycle (issue 28).
   */
  async function libraryAges(client: Queryable, orgId: number, answers: Answer[]) {
    const cited = (source: 'qa' | 'file') => [
      ...new Set(
        answers.flatMap((answer) => {
          const first = answer.drawn_from ? libraryCitation(answer) : null
          return first?.source === source && first.id !== null ? [first.id] : []
        }),
      ),
    ]
    const [qa, files] = [cited('qa'), cited('file')]
    const ages = new Map<string, NonNullable<Answer['library_entry']> & { due: Date }>()
    if (!qa.length && !files.length) return ages
    const { rows } = await client.query<{
      source: 'qa' | 'file'
      id: string
      reviewed_at: Date
      due: Date
      owner_id: string | null
      first_name: string | null
      last_name: string | null
      email: string | null
    }>(
      `select 'qa' as source, i.id, i.last_reviewed_at as reviewed_at,
              i.last_reviewed_at + make_interval(days => coalesce(i.review_cycle_days, o.review_cycle_days)) as due,
              i.owner_id, u.first_name, u.last_name, u.email
         from kb_qa_items i join organizations o on o.id = i.org_id
         left join users u on u.id = i.owner_id
        where i.org_id = $1 and i.id = any($2::bigint[])
       union all
       select 'file', f.id, coalesce(f.stated_at, f.created_at),
              coalesce(f.stated_at, f.created_at) + make_interval(days => o.review_cycle_days),
              null, null, null, null
         from repository_files f join organizations o on o.id = f.org_id
        where f.org_id = $1 and f.id = any($3::bigint[])`,
      [orgId, qa, files],
    )
    const now = new Date()
    for (const row of rows)
      ages.set(`${row.source}:${row.id}`, {
        source: row.source,
        id: Number(row.id),
        reviewed_at: row.reviewed_at.toISOString(),
        age_days: daysBetween(row.reviewed_at, now),
        owner: personOf({ user_id: row.owner_id, ...row }),
        due: row.due,
      })
    return ages
  }

  /** An answer with the freshness and the age of the library entry it was drawn from. */
  function aged(answer: Answer, ages: Awaited<ReturnType<typeof libraryAges>>): Answer {
    const first = answer.drawn_from ? libraryCitation(answer) : null
    const entry = first ? ages.get(`${first.source}:${first.id}`) : undefined
    if (!entry) return answer
    const { due, ...library_entry } = entry
    const cycle = due.getTime() - Date.parse(entry.reviewed_at)
    return {
      ...answer,
      freshness: freshnessOf(new Date(entry.reviewed_at), cycle / 86_400_000),
      library_entry,
    }
  }

  /**
   * Generated answers with what their confidence band means, and answers from documents with the
   * question's parts and the cited sentence that states each (issue 27).
   */
  function explained(
    text: string,
    previous: string | null,
    answers: Answer[],
    drafted: Map<number, AnswerPart[]>,
  ): Answer[] {
    if (!answers.some((answer) => answer.status === 'generated')) return answers
    return answers.map((answer) => {
      if (answer.status !== 'generated') return answer
      const assurance = assuranceOf(answer.confidence)
      const sentences = answer.citations.map((citation) => citation.snippet)
      // the parts as drafted (a language model's check included), while the answer still cites
      // the sentences they name; else as the rules read its citations now
      const stored = drafted.get(answer.id)
      const current =
        stored?.every((part) => part.sentence === null || sentences.includes(part.sentence)) &&
        stored
      const parts =
        answer.drawn_from === 'document' && answer.choice
          ? current || partsOf(text, sentences, previous)
          : []
      return {
        ...answer,
        ...(assurance ? { assurance } : {}),
        ...(parts.length ? { parts } : {}),
      }
    })
  }

  async function answers(
    orgId: number,
    id: number,
    query: { tab?: number; filter: AnswerFilter; ids?: number[] },
  ) {
    const questionnaire = await get(orgId, id)
    const { ids, ...rest } = query
    return {
      questionnaire,
      questions: await questionRows(orgId, id, { ...rest, ...(ids ? { questionIds: ids } : {}) }),
    }
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

  return { tabs, questionRows, answers, answersByTab }
}

export type Reading = ReturnType<typeof createReading>
