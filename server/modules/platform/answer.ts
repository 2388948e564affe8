import { confidenceBand } from '../../../contract/answers.ts'
import type { QuestionAnswer } from '../../../contract/platform.ts'
import type { Library } from '../../answering/library.ts'
import { YES_NO_QUESTION } from '../../answering/library.ts'
import type { EngineAnswer, QuestionInput } from '../../answering/types.ts'
import type { Database } from '../../db/index.ts'
import { loadLibrary } from '../answering/store.ts'

/**
 * One question answered from the organisation's whole knowledge (issue 41): the same engine and
 * rules as a questionnaire's answer, its calibrated confidence and its sources; no answer (and
 * the reason) where the knowledge does not give one. For programs: the API, and MCP's
 * `answer_question`.
 */
export function createQuestionAnswerer(deps: {
  database: Database
  answerQuestion: (
    orgId: number,
    library: Library,
    question: QuestionInput,
  ) => Promise<EngineAnswer>
}) {
  return async function answer(orgId: number, text: string): Promise<QuestionAnswer> {
    // the passages come from the database's search (as a questionnaire's do), not a loaded index
    const library = await loadLibrary(deps.database, orgId)
    const question: QuestionInput = {
      text,
      vocabulary: YES_NO_QUESTION.test(text) ? ['Yes', 'No', 'N/A'] : null,
    }
    const result = await deps.answerQuestion(orgId, library, question)
    const best = result.candidates.find(
      (candidate) => !candidate.withheld && (candidate.text.trim() || candidate.choice),
    )
    if (!best) {
      const withheld = result.candidates.find((candidate) => candidate.withheld)
      return {
        question: text,
        answered: false,
        answer: '',
        choice: null,
        confidence: null,
        band: null,
        citations: withheld?.citations ?? [],
        note:
          withheld?.withheld ??
          result.note ??
          'Nothing in the repository or the library answers this question.',
      }
    }
    const confidence = Math.min(best.confidence, best.ceiling ?? 1)
    return {
      question: text,
      answered: true,
      answer: best.text || best.choice || '',
      choice: best.choice,
      confidence: Math.round(confidence * 1000) / 1000,
      band: confidenceBand(confidence),
      citations: best.citations,
      note: best.reason ?? null,
    }
  }
}

export type QuestionAnswerer = ReturnType<typeof createQuestionAnswerer>
