import type { FileKind, PassageLocation } from '../../contract/knowledge.ts'

/** One searchable piece of a document, with where it came from. */
export interface ParsedPassage {
  text: string
  location: PassageLocation
  /** Set when a table row was recognised as a question and its answer. */
  qa?: { question: string; answer: string }
}

export interface ParseResult {
  passages: ParsedPassage[]
  /** PDF pages; for XLSX and CSV the data rows read; otherwise null. */
  pages: number | null
  title: string | null
}

export interface ParseLimits {
  /** A parse is stopped after this long (UP7). */
  timeoutMs: number
  /** Heap cap of the parser process (UP7). */
  memoryMb: number
  /**
   * Resident-memory cap of the parser process: buffers and native memory live outside the heap
   * (an inflated PDF stream, say), so a watchdog kills the process past this (UP3, UP7).
   */
  rssMb: number
  /** Total bytes a zip may inflate to (UP3). */
  maxInflatedBytes: number
  /** Entries a zip may hold (UP3). */
  maxZipEntries: number
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  timeoutMs: 30_000,
  memoryMb: 512,
  rssMb: 1024,
  maxInflatedBytes: 1024 * 1024 * 1024,
  maxZipEntries: 10_000,
}

/** A parse that failed for a reason the user can act on; the message is shown as the file's error. */
export class ParseError extends Error {
  override name = 'ParseError'
}

export interface TableSheet {
  name: string
  /** rows[i] is row i + 1; cells as displayed text. */
  rows: string[][]
}

export type { FileKind }
