import type { FileDetails, FilePassage } from '../../contract/file-page.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the file is being read; `reading`: what was read from it is being loaded. */
export type FilePageTags = 'loading' | 'reading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type FilePageEvents =
  | { type: 'retry' }
  | { type: 'page.change'; page: number }
  /** Raised when the file has just become ready: what was read changed. */
  | { type: 'read.reload' }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

export interface PassagesInput {
  id: number
  page: number
  page_size: number
  /** Open the list at this page of the document. */
  at_page?: number
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface FilePageInput {
  id: number
  /** The document's page a cited source opens at. */
  citedPage?: number | null
  /** The cited words. */
  citedQuote?: string | null
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface FilePageContext {
  id: number
  details: FileDetails | null
  error: string | null
  passages: FilePassage[]
  count: number
  page: number
  readError: string | null
  /** The document's page a cited source opens at (issue 30): the list opens there, marked. */
  citedPage: number | null
  /** The cited words (issue 39): the passage holding them is marked and brought into view. */
  citedQuote: string | null
  /** Whether the list has yet to be opened at the cited page. */
  seekCited: boolean
}

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `poll`: a queued or processing file is asked for again after this pause. */
export type FilePageDelays = 'poll'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface FilePageSchema {
  context: FilePageContext
  events: FilePageEvents
  input: FilePageInput
  tags: FilePageTags
  delays: FilePageDelays
}
