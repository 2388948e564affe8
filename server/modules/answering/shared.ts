import type { AnswerStatus } from '../../../contract/questionnaires.ts'
import type { Embedder } from '../../answering/embeddings.ts'
import type { EngineAnswer } from '../../answering/engine.ts'
import type { LlmEngine } from '../../answering/llm.ts'
import type { Database } from '../../db/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { QuestionnaireService } from '../questionnaires/service.ts'

import type { AnswerState } from '../questionnaires/shared.ts'

/** What the answering operations share: their row shapes, helpers and constants. */

// an answer's state is the questionnaire area's (its history stores it)
export {
  type AnswerState,
  answerState as stateOf,
  isAnswered,
} from '../questionnaires/shared.ts'

export const GENERATE_JOB = 'questionnaire.generate'
/** The class of the advisory locks that lease a generation run to one process. */
export const GENERATION_LOCK_CLASS = 7231
export const BATCH = 40

export type Queryable = Pick<Database['pool'], 'query'>

export interface AnswerDb extends AnswerState {
  id: string
  rank: number
}

export interface QuestionDb {
  id: string
  text: string
  ref: string | null
  position: number
  tab_id: string
  section: string | null
  vocabulary: string[] | null
  selected_rank: number
  /** The question before it on its tab (for questions that refer back to it). */
  previous: string | null
}

/** Selects a question's `previous` (the question before it on its tab); `qq` is the question. */
export const PREVIOUS_QUESTION = `(select p.text from questionnaire_questions p
    where p.questionnaire_id = qq.questionnaire_id and p.tab_id = qq.tab_id and p.deleted_at is null
      and p.position < qq.position order by p.position desc limit 1) as previous`

export const HUMAN: AnswerStatus[] = ['edited', 'approved']

/** Whether the engine gave an answer (not only candidates it declined to choose between). */
export const gives = (answer: EngineAnswer) =>
  answer.candidates.length > 0 && !answer.candidates[0]?.withheld

export const LLM_REQUIRED =
  'A language model must be configured for custom instructions. Set LLM_BASE_URL and LLM_MODEL, or use consistency, shorten or examples.'

/** What the answering operations are built from. */
export interface AnsweringDeps {
  database: Database
  logger: Logger
  jobs?: Jobs
  questionnaires: QuestionnaireService
  /** The language-model engine, when LLM_BASE_URL and LLM_MODEL are set. */
  llm?: LlmEngine
  /** The embedding model, when EMBEDDING_MODEL is set: passages are also found by meaning. */
  embedder?: Embedder
}
