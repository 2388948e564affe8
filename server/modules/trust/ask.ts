import type { Citation } from '../../../contract/questionnaires.ts'
import type { TrustAnswer } from '../../../contract/trust.ts'
import type { Library } from '../../answering/library.ts'
import { YES_NO_QUESTION } from '../../answering/library.ts'
import type { PassageIndex } from '../../answering/passage-index.ts'
import type { EngineAnswer, QuestionInput } from '../../answering/types.ts'
import type { Database } from '../../db/index.ts'
import { loadLibrary, loadPassageIndex } from '../answering/store.ts'
import { composeAnswer } from '../chat/answer.ts'

/**
 * The trust centre's ask box (issue 40): a visitor's question answered by the same engine and
 * rules as a questionnaire, from what the organisation published only: its public Q&A items and
 * the passages of its public documents. Nothing else is loaded, so nothing else can be quoted.
 * Without an answer it says so and gives the page's contact address.
 */

/** A citation as the public sees it: the words quoted and where they are on the page. */
const publicCitation = (citation: Citation) => ({
  title: citation.title,
  snippet: citation.snippet,
  /** The public document quoted, to download from the page; null for a published answer. */
  document_id: citation.source === 'file' && citation.kind !== 'library' ? citation.id : null,
})

export const noPublicAnswer = (contact: string | null) =>
  `We have not published an answer to this question.${contact ? ` Ask us at ${contact}.` : ' Ask us directly.'}`

export function createTrustAsk(deps: {
  database: Database
  embeddingModel?: string
  hasModel: boolean
  answerQuestion: (
    orgId: number,
    library: Library,
    question: QuestionInput,
    index: PassageIndex,
  ) => Promise<EngineAnswer>
}) {
  return async function ask(
    page: { orgId: number; contactEmail: string | null },
    text: string,
  ): Promise<TrustAnswer> {
    const [library, index] = await Promise.all([
      loadLibrary(deps.database, page.orgId, undefined, { publicOnly: true }),
      loadPassageIndex(deps.database, page.orgId, deps.embeddingModel, { publicOnly: true }),
    ])
    const question: QuestionInput = {
      text,
      vocabulary: YES_NO_QUESTION.test(text) ? ['Yes', 'No', 'N/A'] : null,
    }
    const answer = await deps.answerQuestion(page.orgId, library, question, index)
    const answered = answer.candidates.some(
      (candidate) => !candidate.withheld && (candidate.text.trim() || candidate.choice),
    )
    if (!answered) return { answer: noPublicAnswer(page.contactEmail), citations: [], answered }
    const composed = composeAnswer({
      question,
      answer,
      passages: index.search(text),
      library,
      model: deps.hasModel,
      voice: 'public',
    })
    return {
      answer: composed.content,
      citations: composed.citations.map(publicCitation),
      answered,
    }
  }
}

export type TrustAsk = ReturnType<typeof createTrustAsk>
