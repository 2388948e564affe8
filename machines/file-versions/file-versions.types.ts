import type { FileVersion } from '../../contract/knowledge.ts'
import type { UploadSource } from '../upload-queue/index.ts'

/** A file's versions: the context, events, what it emits and what a replacement sends. */

/** The file a dialog or a replacement is about. */
export interface VersionedFile {
  id: number
  name: string
}

export interface FileVersionsContext {
  /** The file whose history is shown. */
  file: VersionedFile | null
  versions: FileVersion[]
  error: string | null
  /** The file "Replace…" was chosen on, until its new version is picked. */
  target: VersionedFile | null
  /** The new version being sent. */
  source: UploadSource | null
  maxUploadMb: number
}

export type FileVersionsEvents =
  | { type: 'history.open'; file: VersionedFile }
  | { type: 'close' }
  | { type: 'retry' }
  | { type: 'replace.choose'; file: VersionedFile }
  | { type: 'replace.pick'; source: UploadSource }

export type FileVersionsEmitted =
  | { type: 'replaced'; name: string; version: number; unchanged: boolean }
  | { type: 'failed'; error: string }

export interface ReplaceInput {
  id: number
  source: UploadSource
}
