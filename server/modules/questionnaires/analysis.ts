import { fillText } from '../../../contract/knowledge.ts'
import { PORTAL_TEXTS } from '../../../contract/portal.ts'
import {
  QUESTIONNAIRE_TEXTS,
  type QuestionnaireKind,
  type TabMapping,
} from '../../../contract/questionnaires.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { ParseError, readQuestionnaire } from '../../ingest/index.ts'
import type { AnalysedTab } from '../../workbooks/analyse.ts'
import { emitWebhook } from '../platform/webhooks.ts'
import { guessProduct } from '../products/service.ts'
import type { Records } from './records.ts'
import {
  type AnswerRowDb,
  type AnswerState,
  answerState,
  emptyState,
  type QuestionnaireDeps,
} from './shared.ts'

/**
 * Analysis: the stored file read in a parser process, its tabs and questions stored with their exact locations; re-analysis keeps the answers of questions that remain.
 */
export function createAnalysis(deps: QuestionnaireDeps, records: Records) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'questionnaires' })

  const { get, queueAnalysis } = records

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
    if (row.kind === 'portal') {
      await fail(PORTAL_TEXTS.readAgain)
      return
    }
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
      // issue 38: a questionnaire nobody gave a product is for the one its file name names;
      // guessed before it is stored as ready, so that no reader sees it ready without its product
      await guessProduct(pool, orgId, { table: 'questionnaires', id }, [row.name])
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

  /** What a question starts from: the answer its file arrived with (issue 39), else nothing. */
  const startingState = (question: AnalysedTab['questions'][number]): AnswerState =>
    question.existing
      ? {
          ...emptyState(),
          status: 'existing',
          text: question.existing.text.slice(0, 20_000),
          choice: question.existing.choice,
          comment: question.existing.comment.slice(0, 20_000),
        }
      : emptyState()

  async function store(orgId: number, id: number, tabs: AnalysedTab[]) {
    await inTransaction(pool, async (client) => {
      const locked = await client.query('select id from questionnaires where id = $1 for update', [
        id,
      ])
      if (!locked.rowCount) return // deleted meanwhile
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
            answers.push({ questionId, rank: 0, state: startingState(question) })
        } else answers.push({ questionId, rank: 0, state: startingState(question) })
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
      const analysed = await client.query<{ name: string }>(
        `update questionnaires set status = 'ready', progress = 100, progress_label = null, error = null,
            analyzed_at = now(), updated_at = now(), revision = revision + 1 where id = $1
         returning name`,
        [id],
      )
      // issue 41: the organisation's endpoints hear of it, with the change
      await emitWebhook(client, orgId, 'questionnaire.analysed', {
        questionnaire_id: id,
        name: analysed.rows[0]?.name ?? '',
        questions: questions.length,
      })
    })
  }

  async function reanalyze(
    orgId: number,
    id: number,
    mappings: { tab: string; mapping: TabMapping }[] = [],
  ) {
    const questionnaire = await get(orgId, id)
    if (questionnaire.status === 'analyzing' || questionnaire.status === 'queued')
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
    if (questionnaire.kind === 'portal')
      throw apiError(400, PORTAL_TEXTS.readAgain, { code: 'validation_error' })
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

  return { analyse, reanalyze }
}

export type Analysis = ReturnType<typeof createAnalysis>
