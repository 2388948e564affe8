import type { ImportPreview, ImportResult } from '../../contract/knowledge.ts'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export interface ImportFile {
  name: string
  size: number
}

export type QaImportEvents =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'file.choose'; file: ImportFile }
  | { type: 'choice.change'; change: Partial<ImportChoice> }
  | { type: 'sheet.change'; sheet: string }
  | { type: 'submit' }
  | { type: 'back' }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

export interface ImportInput {
  file: ImportFile
  mapping: {
    sheet: string
    header_row: number
    question: string
    answer: string
    dropdown: string | null
    tags_column: string | null
    tags: string[]
  }
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ImportChoice {
  sheet: string
  header_row: number
  question: string
  answer: string
  dropdown: string
  tags_column: string
  tags: string
}

export interface QaImportContext {
  file: ImportFile | null
  preview: ImportPreview | null
  choice: ImportChoice
  result: ImportResult | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type QaImportEmitted = { type: 'imported'; result: ImportResult }
