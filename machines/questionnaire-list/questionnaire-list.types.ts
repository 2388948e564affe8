import type { Questionnaire } from '../../contract/questionnaires.ts'
import type { QuestionnaireFilters } from './filters.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the list is being fetched; `busy`: the chosen questionnaires are being deleted. */
export type QuestionnaireListTags = 'loading' | 'busy'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export interface UploadSource {
  name: string
  size: number
}

/** What the upload asks about the work (issue 39), as typed: each optional, blank for none. */
export interface UploadWorkValues {
  customer_name: string
  due_date: string
  owner_id: string
}
export type UploadWorkField = keyof UploadWorkValues

export type QuestionnaireListEvents =
  | { type: 'retry' }
  | { type: 'refresh' }
  | { type: 'toggle'; id: number }
  | { type: 'toggle.all' }
  | { type: 'delete.request'; ids: number[] }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'files.add'; files: UploadSource[] }
  | { type: 'upload.dismiss'; key: string }
  /** The product the questionnaires added next are for (null: all products). */
  | { type: 'product.choose'; productId: number | null }
  /** The customer, due date or owner of the questionnaires added next (issue 39). */
  | { type: 'uploadWork.change'; field: UploadWorkField; value: string }
  | { type: 'filter.set'; filters: Partial<QuestionnaireFilters> }
  | { type: 'filter.clear' }
  | { type: 'work.saved'; questionnaire: Questionnaire }
  /** Sent by the upload actor. */
  | { type: 'upload.progress'; key: string; progress: number }
  | { type: 'upload.done'; key: string; questionnaire: Questionnaire }
  | { type: 'upload.failed'; key: string; error: string }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

/** One page of the list, as the server answers it. */
export interface QuestionnairePage {
  count: number
  results: Questionnaire[]
}

export interface UploadInput {
  key: string
  source: UploadSource
  productId: number | null
  /** Sent as the upload's form fields; blank ones are left out. */
  fields: Record<string, string>
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface QuestionnaireListInput {
  /** The largest file the server takes, in MB (50 unless told). */
  maxUploadMb?: number
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface UploadRow {
  key: string
  name: string
  progress: number
  status: 'waiting' | 'uploading' | 'failed'
  error: string | null
  source: UploadSource
  /** The product it is for, as chosen when it was added (issue 38); null: all products. */
  productId: number | null
  /** The work asked with it (issue 39), as it stood when it was added. */
  work: UploadWorkValues
}

export interface QuestionnaireListContext {
  items: Questionnaire[]
  count: number
  loaded: boolean
  error: string | null
  selected: number[]
  pendingDelete: number[]
  uploads: UploadRow[]
  nextKey: number
  maxUploadMb: number
  filters: QuestionnaireFilters
  /** The product the questionnaires added next are for (issue 38); null: all products. */
  productId: number | null
  /** The customer, due date and owner of the questionnaires added next (issue 39). */
  uploadWork: UploadWorkValues
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type QuestionnaireListEmitted =
  | { type: 'deleted'; count: number }
  | { type: 'uploaded'; questionnaire: Questionnaire }
  | { type: 'failed'; error: string }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `POLL`: while something is analysed or answered, the list is fetched again after this. */
export type QuestionnaireListDelays = 'POLL'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface QuestionnaireListSchema {
  context: QuestionnaireListContext
  events: QuestionnaireListEvents
  input: QuestionnaireListInput
  emitted: QuestionnaireListEmitted
  tags: QuestionnaireListTags
  delays: QuestionnaireListDelays
}
