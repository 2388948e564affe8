import type { RepositoryFile } from '../../contract/knowledge.ts'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** What the view hands over for each file: its name and size, and the file itself. */
export interface UploadSource {
  name: string
  size: number
}

export type UploadQueueEvents =
  | { type: 'files.add'; files: UploadSource[] }
  | { type: 'retry'; key: string }
  | { type: 'remove'; key: string }
  | { type: 'clear.finished' }
  /** The product the files added next speak for (null: all products). */
  | { type: 'product.choose'; productId: number | null }
  /** Sent by an upload actor. */
  | { type: 'upload.progress'; key: string; progress: number }
  | { type: 'upload.done'; key: string; file: UploadedAs }
  | { type: 'upload.failed'; key: string; error: string }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

/** What an upload answers: the file, and whether it became a new version of one already there. */
export type UploadedAs = RepositoryFile & { new_version?: boolean; unchanged?: boolean }

export interface UploadInput {
  key: string
  source: UploadSource
  productId: number | null
}

export interface PollInput {
  ids: number[]
}

export type PollOutput = Pick<RepositoryFile, 'id' | 'status' | 'progress' | 'error'>[]

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface UploadQueueInput {
  /** The largest file the server takes, in MB (the contract's default unless told). */
  maxUploadMb?: number
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export type QueueItemStatus = 'waiting' | 'uploading' | 'processing' | 'ready' | 'failed'

export interface QueueItem {
  key: string
  name: string
  size: number
  status: QueueItemStatus
  /** 0-100: bytes sent while uploading, the server's progress while processing. */
  progress: number
  error: string | null
  fileId: number | null
  /**
   * Issue 28: the version this upload made of a file already in the repository (same name), or
   * null for a new file; `unchanged` when the bytes were those of the current version.
   */
  newVersion: number | null
  unchanged: boolean
  source: UploadSource
  /** The product it speaks for, as chosen when it was added (issue 38); null: all products. */
  productId: number | null
}

export interface UploadQueueContext {
  items: QueueItem[]
  nextKey: number
  maxUploadMb: number
  /** The product the files added next speak for (issue 38); null: all products. */
  productId: number | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type UploadQueueEmitted =
  | { type: 'changed' }
  /** An upload made a new version of a file (or matched its current one: `unchanged`). */
  | { type: 'versioned'; name: string; version: number; unchanged: boolean }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `pollInterval`: files the server still processes are asked for again after this pause. */
export type UploadQueueDelays = 'pollInterval'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface UploadQueueSchema {
  context: UploadQueueContext
  events: UploadQueueEvents
  emitted: UploadQueueEmitted
  input: UploadQueueInput | undefined
  delays: UploadQueueDelays
}
