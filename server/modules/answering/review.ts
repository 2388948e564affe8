import {
  type Citation,
  type OperationKind,
  QUESTIONNAIRE_TEXTS,
  REGENERATE_UNCHANGED,
} from '../../../contract/questionnaires.ts'
import { toEvidence } from '../../answering/llm.ts'
import { sentences, terms } from '../../answering/text.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { Change } from '../questionnaires/service.ts'
import type { Drafting } from './drafting.ts'
import { previewOf, type SectionRow, sectionRows } from './section-rows.ts'
import {
  type AnsweringDeps,
  type AnswerState,
  gives,
  isAnswered,
  LLM_REQUIRED,
  PREVIOUS_QUESTION,
  type Queryable,
  type QuestionDb,
} from './shared.ts'
import { loadLibrary, searchPassages } from './store.ts'
import { answerStyleOf } from './style.ts'

/**
 * Review operations on one answer or a section: regenerate, apply consistency, shorten, examples and custom instructions; each is one operation in the history and one undo.
 */
export function createReview(deps: AnsweringDeps, drafting: Drafting) {
  const { pool } = deps.database

  const { writeCandidates, answerQuestion } = drafting

  async function questionOfAnswer(orgId: number, answerId: number) {
    const { rows } = await pool.query<
      QuestionDb & { questionnaire_id: string; answer_rank: number }
    >(
      `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank,
              qq.questionnaire_id, a.rank as answer_rank, ${PREVIOUS_QUESTION}
         from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return row
  }

  const label = (row: { ref: string | null; position: number }) =>
    row.ref ?? `question ${row.position + 1}`

  async function regenerate(
    orgId: number,
    userId: number,
    answerId: number,
    evidence?: { text?: string; fileIds?: number[] },
  ) {
    const question = await questionOfAnswer(orgId, answerId)
    const questionnaireId = Number(question.questionnaire_id)
    if (evidence?.fileIds?.length) {
      const { rows } = await pool.query<{ id: string }>(
        'select id from repository_files where org_id = $1 and id = any($2::bigint[])',
        [orgId, evidence.fileIds],
      )
      if (rows.length !== new Set(evidence.fileIds).size) throw notFound('File not found')
    }
    const library = await loadLibrary(deps.database, orgId, questionnaireId)
    const answer = await answerQuestion(orgId, library, question, evidence)
    let unchanged = false
    const result = await deps.questionnaires.change(
      orgId,
      questionnaireId,
      userId,
      async (client) => {
        const fresh = await client.query<{ selected_rank: number }>(
          'select selected_rank from questionnaire_questions where id = $1 for update',
          [question.id],
        )
        const current = { ...question, selected_rank: fresh.rows[0]?.selected_rank ?? 0 }
        const before = await client.query<AnswerState>(
          'select * from questionnaire_answers where question_id = $1 and rank = $2',
          [question.id, current.selected_rank],
        )
        if (gives(answer) && before.rows[0] && !isAnswered(before.rows[0]))
          await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
        const changes = await writeCandidates(
          client,
          orgId,
          questionnaireId,
          current,
          answer,
          userId,
        )
        const kind: OperationKind = evidence ? 'regenerate_with_evidence' : 'regenerate'
        // nothing new found: the same draft, and it says so (issue 39)
        unchanged = changes.every(
          (change) =>
            change.t !== 'a' ||
            (change.before !== null &&
              change.before.text === change.after.text &&
              change.before.choice === change.after.choice &&
              change.before.note === change.after.note),
        )
        return {
          kind,
          summary: unchanged
            ? `${REGENERATE_UNCHANGED}: the answer to ${label(question)} is as it was`
            : `${evidence ? 'Regenerated with evidence' : 'Regenerated'} the answer to ${label(question)}${gives(answer) ? '' : answer.candidates.length ? ': the records disagree' : ': no evidence found'}`,
          changes,
        }
      },
    )
    return unchanged ? { ...result, notice: REGENERATE_UNCHANGED } : result
  }

  const normalise = (text: string) => terms(text).join(' ')
  const yesNo = (state: AnswerState) => {
    const value = (state.choice ?? state.text).trim().toLowerCase()
    if (/^yes\b/.test(value)) return 'yes'
    if (/^no\b/.test(value)) return 'no'
    return null
  }

  /** Copies an approved (or chosen) answer to the questions that ask the same thing. */
  async function applyConsistency(orgId: number, userId: number, answerId: number) {
    const source = await questionOfAnswer(orgId, answerId)
    const questionnaireId = Number(source.questionnaire_id)
    let contradictions: { question_id: number; ref: string | null }[] = []
    const result = await deps.questionnaires.change(
      orgId,
      questionnaireId,
      userId,
      async (client) => {
        const rows = await sectionRows(client, orgId, questionnaireId, {})
        const origin = rows.find((row) => Number(row.question.id) === Number(source.id))
        if (!origin || !isAnswered(origin.state))
          throw apiError(400, 'Answer the question before applying its answer to others', {
            code: 'validation_error',
          })
        const key = normalise(origin.question.text)
        const changes: Change[] = []
        for (const row of rows) {
          if (row === origin || normalise(row.question.text) !== key) continue
          if (row.state.status === 'approved') {
            if (yesNo(row.state) && yesNo(origin.state) && yesNo(row.state) !== yesNo(origin.state))
              contradictions.push({ question_id: Number(row.question.id), ref: row.question.ref })
            continue
          }
          const choice =
            origin.state.choice && row.question.vocabulary?.includes(origin.state.choice)
              ? origin.state.choice
              : row.question.vocabulary?.length
                ? null
                : origin.state.choice
          const after: AnswerState = {
            ...row.state,
            text: origin.state.text,
            choice,
            status: 'edited',
            confidence: origin.state.confidence,
            citations: origin.state.citations,
            note: null,
          }
          if (!isAnswered(row.state) && isAnswered(after))
            await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
          changes.push(
            await deps.questionnaires.writeAnswer(client, row.answerId, row.state, after, userId),
          )
        }
        return {
          kind: 'apply_consistency',
          summary: `Applied the answer to ${label(origin.question)} to ${changes.length} matching question${changes.length === 1 ? '' : 's'}`,
          changes,
        }
      },
    )
    contradictions = contradictions.slice(0, 50)
    return { ...result, contradictions }
  }

  /** Section operations over a tab or a list of questions. */
  async function section(
    orgId: number,
    userId: number,
    questionnaireId: number,
    kind: 'consistency' | 'shorten' | 'examples' | 'custom',
    scope: { tab_id?: number; question_ids?: number[]; instruction?: string; preview?: boolean },
  ) {
    if (kind === 'custom' && !deps.llm)
      throw apiError(400, LLM_REQUIRED, { code: 'llm_not_configured' })
    if (kind === 'custom' && !scope.instruction?.trim())
      throw apiError(400, 'Write the instruction to apply', { code: 'validation_error' })
    await deps.questionnaires.get(orgId, questionnaireId)
    // with a language model, shorten, examples and custom instructions are rewrites from evidence
    const rewrites = new Map<number, { text: string; citations: Citation[] }>()
    if (deps.llm && kind !== 'consistency') {
      const llm = deps.llm
      const library = await loadLibrary(deps.database, orgId, questionnaireId)
      const styleFor = await answerStyleOf(pool, orgId)
      const candidates = await sectionRows(pool, orgId, questionnaireId, scope)
      const task =
        kind === 'shorten'
          ? 'Shorten the answer to one or two sentences without losing what it commits to.'
          : kind === 'examples'
            ? 'Add one or two concrete examples taken from the evidence to the answer.'
            : `Apply this instruction from the reviewer to the answer: ${scope.instruction}`
      await Promise.all(
        candidates
          .filter((row) => isAnswered(row.state) && row.state.status !== 'approved')
          .map(async (row) => {
            const matches = library.match(row.question.text)
            const passages = await searchPassages(deps.database, orgId, row.question.text, {
              limit: 6,
            })
            const result = await llm.rewrite(
              orgId,
              task,
              row.question.text,
              row.state.text,
              toEvidence(matches, passages),
              styleFor(row.question.text),
            )
            if (result && result.text !== row.state.text)
              rewrites.set(Number(row.question.id), result)
          }),
      )
    }
    const contradictions: { question_id: number; ref: string | null; other_id: number }[] = []
    const library = kind === 'examples' ? await loadLibrary(deps.database, orgId) : null
    const examples = new Map<number, string>()
    if (kind === 'examples' && library) {
      // evidence is looked up before the transaction: searches do not hold row locks
      const rows = await sectionRows(pool, orgId, questionnaireId, scope)
      for (const row of rows) {
        if (!isAnswered(row.state)) continue
        const passages = await searchPassages(
          deps.database,
          orgId,
          `${row.question.text} ${row.state.text}`,
          {
            limit: 8,
          },
        )
        const found = passages
          .flatMap((passage) => sentences(passage.text))
          .find(
            (sentence) =>
              /\b(for example|such as|e\.g\.|including|for instance)\b/i.test(sentence) &&
              !row.state.text.includes(sentence),
          )
        if (found) examples.set(Number(row.question.id), found)
      }
    }
    let worked: SectionRow[] = []
    const work = async (client: Queryable) => {
      const rows = await sectionRows(client, orgId, questionnaireId, scope)
      worked = rows
      const changes: Change[] = []
      if (kind === 'consistency') {
        // questions asking the same thing get the answer of the best one (approved, then most confident)
        const groups = new Map<string, typeof rows>()
        for (const row of rows) {
          const key = normalise(row.question.text)
          groups.set(key, [...(groups.get(key) ?? []), row])
        }
        for (const group of groups.values()) {
          if (group.length < 2) continue
          const answeredRows = group.filter((row) => isAnswered(row.state))
          const best = [...answeredRows].sort(
            (a, b) =>
              Number(b.state.status === 'approved') - Number(a.state.status === 'approved') ||
              (b.state.confidence ?? 0) - (a.state.confidence ?? 0),
          )[0]
          if (!best) continue
          for (const row of group) {
            if (row === best) continue
            if (row.state.status === 'approved') {
              if (yesNo(row.state) && yesNo(best.state) && yesNo(row.state) !== yesNo(best.state))
                contradictions.push({
                  question_id: Number(row.question.id),
                  ref: row.question.ref,
                  other_id: Number(best.question.id),
                })
              continue
            }
            if (row.state.text === best.state.text && row.state.choice === best.state.choice)
              continue
            const after: AnswerState = {
              ...row.state,
              text: best.state.text,
              choice:
                best.state.choice &&
                (row.question.vocabulary ?? [best.state.choice]).includes(best.state.choice)
                  ? best.state.choice
                  : row.state.choice,
              status: 'edited',
              confidence: best.state.confidence,
              citations: best.state.citations,
              note: null,
            }
            if (!isAnswered(row.state)) await deps.questionnaires.checkAnswerLimit(client, orgId, 1)
            changes.push(
              await deps.questionnaires.writeAnswer(client, row.answerId, row.state, after, userId),
            )
          }
        }
      } else if (deps.llm) {
        for (const row of rows) {
          const rewrite = rewrites.get(Number(row.question.id))
          if (!rewrite || !isAnswered(row.state) || row.state.status === 'approved') continue
          changes.push(
            await deps.questionnaires.writeAnswer(
              client,
              row.answerId,
              row.state,
              {
                ...row.state,
                text: rewrite.text,
                status: 'edited',
                citations: rewrite.citations.length ? rewrite.citations : row.state.citations,
              },
              userId,
            ),
          )
        }
      } else {
        for (const row of rows) {
          if (!isAnswered(row.state) || row.state.status === 'approved') continue
          let text = row.state.text
          if (kind === 'shorten') {
            // extractive: the first sentence, or the first two when the first is very short
            const parts = sentences(text)
            const first = parts[0] ?? text
            const short = first.length < 30 && parts[1] ? `${first} ${parts[1]}` : first
            if (short.length >= text.length) continue
            text = short
          } else {
            const example = examples.get(Number(row.question.id))
            if (!example) continue
            text = `${text.trim()}${text.trim() ? '\n\n' : ''}For example: ${example}`
          }
          changes.push(
            await deps.questionnaires.writeAnswer(
              client,
              row.answerId,
              row.state,
              { ...row.state, text, status: 'edited' },
              userId,
            ),
          )
        }
      }
      const what = {
        consistency: 'Made answers consistent',
        shorten: 'Shortened answers',
        examples: 'Added examples to answers',
        custom: `Applied “${(scope.instruction ?? '').slice(0, 80)}”`,
      }[kind]
      return {
        kind: `section_${kind}` as OperationKind,
        summary: `${what}: ${changes.length} changed`,
        changes,
      }
    }
    if (scope.preview) {
      const changes = await deps.questionnaires.preview(orgId, questionnaireId, work)
      return previewOf(changes, worked, contradictions)
    }
    const result = await deps.questionnaires.change(orgId, questionnaireId, userId, work)
    return { ...result, contradictions }
  }

  return { regenerate, applyConsistency, section }
}

export type Review = ReturnType<typeof createReview>
