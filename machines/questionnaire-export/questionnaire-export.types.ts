import type {
  CheckFilledFile,
  ExportFormat,
  ExportRun,
  FilledFile,
} from '../../contract/questionnaires.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `busy`: an export is started, followed or downloaded; the Export menu waits. */
export type ExportTags = 'busy'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ExportEvents =
  /** Another viewer's export finished (the live stream), or the page asks. */
  | { type: 'refresh' }
  /** The questionnaire's revision as it changes. */
  | { type: 'revision'; revision: number | null }
  | { type: 'export'; format: ExportFormat; approvedOnly?: boolean }
  | { type: 'download.latest' }
  | { type: 'retry' }
  | { type: 'dismiss' }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

export type { CheckFilledFile, ExportRun, FilledFile }

export interface StartExportInput {
  id: number
  format: ExportFormat
  approvedOnly: boolean | null
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface ExportInput {
  /** The questionnaire's id. */
  id: number
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ExportContext {
  id: number
  latest: FilledFile | null
  format: ExportFormat | null
  /** The export run being waited for (or the last one). */
  run: ExportRun | null
  error: string | null
  /** The questionnaire's revision last told, to check the latest file again when it changes. */
  revision: number | null
  /** Issue 39: the original is filled with approved answers only (null: the organisation's default). */
  approvedOnly: boolean | null
  /** Whether the organisation fills with approved answers only unless asked otherwise. */
  approvedOnlyDefault: boolean
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type ExportEmitted =
  | { type: 'exported'; file: FilledFile }
  | { type: 'failed'; message: string }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `EXPORT_POLL`: a queued or running export run is asked for again after this pause. */
export type ExportDelays = 'EXPORT_POLL'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ExportSchema {
  context: ExportContext
  events: ExportEvents
  input: ExportInput
  emitted: ExportEmitted
  tags: ExportTags
  delays: ExportDelays
}
