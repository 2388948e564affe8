import { fuse } from '../../answering/embeddings.ts'
import {
  answerFromEvidence,
  type Candidate,
  type EngineAnswer,
  type Library,
  namedPractices,
  type PassageHit,
  type PassageIndex,
  practiceQuery,
  type QuestionInput,
  submissionField,
} from '../../answering/engine.ts'
import { checkedByModel } from '../../answering/entailment.ts'
import { toEvidence } from '../../answering/llm.ts'
import { documentsForProduct, passagesForProduct } from '../../answering/products.ts'
import type { Change } from '../questionnaires/service.ts'
import { emptyState, stateValues } from '../questionnaires/shared.ts'
import {
  type AnswerDb,
  type AnsweringDeps,
  type AnswerState,
  type Queryable,
  type QuestionDb,
  stateOf,
} from './shared.ts'
import { searchPassages, semanticSearch } from './store.ts'
import { answerStyleOf } from './style.ts'

/**
 * Drafting one question's answer: evidence from the library, the passages (by words and, with an embedding model, by meaning) and the engines; writing its candidates.
 */
export function createDrafting(deps: AnsweringDeps) {
  const log = deps.logger.child({ component: 'answering' })

  /** Writes a question's candidates; returns the changes for the history. */
  async function writeCandidates(
    client: Queryable,
    orgId: number,
    questionnaireId: number,
    question: QuestionDb,
    answer: EngineAnswer,
    userId: number | null,
  ): Promise<Change[]> {
    const { rows: existing } = await client.query<AnswerDb>(
      `select id, rank, text, choice, comment, status, confidence, citations, note
         from questionnaire_answers where question_id = $1 order by rank for update`,
      [question.id],
    )
    const changes: Change[] = []
    const keepComment = existing.find((row) => row.rank === question.selected_rank)?.comment ?? ''
    const next: AnswerState[] = answer.candidates.length
      ? answer.candidates.map((candidate: Candidate) =>
          candidate.withheld
            ? {
                text: '',
                choice: null,
                comment: keepComment,
                status: 'no_answer' as const,
                confidence: 0,
                citations: candidate.citations,
                note: candidate.withheld,
              }
            : {
                text: candidate.text,
                choice: candidate.choice,
                comment: keepComment,
                status: 'generated' as const,
                confidence: Math.round(candidate.confidence * 1000) / 1000,
                citations: candidate.citations,
                note: candidate.reason ?? null,
              },
        )
      : [
          {
            text: '',
            choice: null,
            comment: keepComment,
            status: 'no_answer' as const,
            confidence: 0,
            citations: [],
            note: answer.note,
          },
        ]
    const ranks = Math.max(next.length, existing.length)
    for (let rank = 0; rank < ranks; rank++) {
      const before = existing.find((row) => row.rank === rank)
      const after: AnswerState = next[rank] ?? emptyState()
      if (before) {
        const old = stateOf(before)
        if (JSON.stringify(old) === JSON.stringify(after)) continue
        changes.push(
          await deps.questionnaires.writeAnswer(client, Number(before.id), old, after, userId),
        )
      } else {
        const { rows } = await client.query<{ id: string }>(
          `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, comment, status, confidence, citations, note, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
          [orgId, questionnaireId, question.id, rank, ...stateValues(after), userId],
        )
        changes.push({ t: 'a', id: Number(rows[0]?.id), before: null, after })
      }
    }
    // the parts each candidate states, as drafted (the panel shows them; null where none)
    await client.query(
      `update questionnaire_answers a set parts = t.parts
         from unnest($2::int[], $3::jsonb[]) as t(rank, parts)
        where a.question_id = $1 and a.rank = t.rank
          and a.parts is distinct from t.parts`,
      [
        question.id,
        next.map((_, rank) => rank),
        next.map((_, rank) => {
          const candidate = answer.candidates[rank]
          return candidate?.parts?.length && !candidate.withheld
            ? JSON.stringify(candidate.parts)
            : null
        }),
      ],
    )
    if (question.selected_rank !== 0) {
      await client.query('update questionnaire_questions set selected_rank = 0 where id = $1', [
        question.id,
      ])
      changes.push({
        t: 'q',
        id: Number(question.id),
        before: { selected_rank: question.selected_rank, deleted: false },
        after: { selected_rank: 0, deleted: false },
      })
    }
    return changes
  }

  /** A batch's question vectors in one call, when the passages have vectors to compare with. */
  async function batchVectors(texts: string[], index: PassageIndex) {
    if (!deps.embedder || !index.hasVectors) return []
    try {
      return await deps.embedder.embed(texts)
    } catch (error) {
      log.warn({ err: String(error) }, 'embedding questions failed; passages found by words')
      return []
    }
  }

  /** Passages close in meaning to the question (none without an embedding model). */
  async function nearestPassages(
    orgId: number,
    text: string,
    evidence: { fileIds?: number[] } | undefined,
    index: PassageIndex | undefined,
    vector: Float32Array | null | undefined,
  ): Promise<PassageHit[]> {
    const { embedder } = deps
    if (!embedder) return []
    if (index && !evidence) return vector && index.hasVectors ? index.nearest(vector) : []
    try {
      const [own] = await embedder.embed([text])
      if (!own) return []
      return await semanticSearch(deps.database, orgId, embedder, own, {
        fileIds: evidence?.fileIds,
      })
    } catch (error) {
      log.warn({ err: String(error) }, 'embedding the question failed; passages found by words')
      return []
    }
  }

  async function answerQuestion(
    orgId: number,
    library: Library,
    question: QuestionInput,
    evidence?: { text?: string; fileIds?: number[] },
    index?: PassageIndex,
    /** The question's vector, when the job embedded its batch at once. */
    vector?: Float32Array | null,
  ): Promise<EngineAnswer> {
    const matches = evidence?.fileIds?.length ? [] : library.match(question.text)
    const strong = matches.some((match) => match.score >= 0.6)
    const find = async () => {
      const lexical =
        index && !evidence
          ? index.search(question.text)
          : await searchPassages(deps.database, orgId, question.text, {
              fileIds: evidence?.fileIds,
            })
      // the passages about the practices the question names, in any wording (the vocabulary's terms)
      const named = practiceQuery(namedPractices(question.text, question.previous))
      const aboutPractice = !named
        ? []
        : index && !evidence
          ? index.search(named)
          : await searchPassages(deps.database, orgId, named, { fileIds: evidence?.fileIds })
      const semantic = await nearestPassages(orgId, question.text, evidence, index, vector)
      // then the answer text of the library: what approved answers say about other questions
      const narratives = evidence?.fileIds?.length ? [] : library.narratives().search(question.text)
      const lists = [lexical, aboutPractice, semantic, narratives].filter((list) => list.length)
      return lists.length > 1 ? fuse(lists, 16) : (lists[0] ?? [])
    }
    let passages: PassageHit[] = []
    // a fact of one product is never read from another product's documents (issue 38)
    const scope = library.productScope
    const found = async () => passagesForProduct(question, await find(), scope)
    if (!strong || evidence) passages = await found()
    if (evidence?.text?.trim()) {
      passages.unshift({
        id: 0,
        fileId: null,
        source: 'evidence',
        title: 'Evidence you added',
        text: evidence.text.trim(),
        location: null,
        rank: 1,
      })
    }
    const practice = evidence?.fileIds?.length ? [] : library.about(question.text)
    // sentences of another product's documents only: that product's, named, never High
    const rules = documentsForProduct(
      answerFromEvidence(
        question,
        matches,
        passages,
        library.space,
        practice,
        evidence?.fileIds?.length ? null : library,
      ),
      scope,
    )
    const { llm } = deps
    // a field that describes the submission is the data items', or the person's: the model
    // would fill it from another questionnaire's row
    if (!llm || submissionField(question)) return rules
    // a Yes the rules read from document sentences, part by part: the model says which parts the
    // sentences state, and the answer keeps only those (rules and model; a failed call, the rules)
    const checked = await checkedByModel(
      rules,
      (parts, sentences) => llm.entails(orgId, question, parts, sentences),
      log,
    )
    if (checked) return documentsForProduct(checked, scope)
    // the model sees the passages too, even when the library matched
    if (strong && !evidence) passages = await found()
    const style = (await answerStyleOf(deps.database.pool, orgId))(question.text)
    return documentsForProduct(
      await llm.answer(orgId, question, toEvidence(matches, passages), style),
      scope,
    )
  }

  /* ------------------------------------------------------------ generation job */

  return { writeCandidates, batchVectors, answerQuestion }
}

export type Drafting = ReturnType<typeof createDrafting>
