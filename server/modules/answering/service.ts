import { createDrafting } from './drafting.ts'
import { createGeneration } from './generation.ts'
import { createLibraryOperations } from './library.ts'
import { createReview } from './review.ts'
import type { AnsweringDeps } from './shared.ts'

export { GENERATE_JOB, LLM_REQUIRED } from './shared.ts'

/**
 * Answering a questionnaire: generation as a job with per-question progress (resumable, never
 * touching answers a person edited or approved, DU2), and the review operations of one answer or
 * a section. Every run is one operation in the history and one undo.
 */
export function createAnsweringService(deps: AnsweringDeps) {
  const drafting = createDrafting(deps)
  return {
    ...createGeneration(deps, drafting),
    ...createReview(deps, drafting),
    ...createLibraryOperations(deps),
    answerQuestion: drafting.answerQuestion,
  }
}

export type AnsweringService = ReturnType<typeof createAnsweringService>
