import type { FileKind, FileStatus, RepositoryFile } from '../../../contract/knowledge.ts'
import type { Embedder } from '../../answering/embeddings.ts'
import type { Database } from '../../db/index.ts'
import { personOf } from '../../db/people.ts'
import type { ParseLimits } from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import type { Storage } from '../../storage/index.ts'

/**
 * The repository: files an organisation keeps, their blobs, and their ingestion into passages.
 * Every query carries the caller's org id; another organisation's file is simply not found.
 */

export const INGEST_JOB = 'repository.ingest'

export interface RepositoryDeps {
  database: Database
  storage: Storage
  jobs?: Jobs
  logger: Logger
  parseLimits: Partial<ParseLimits>
  urlFetchAllow: string[]
  /** EMBEDDING_MODEL: passages get their vectors once the file is ready. */
  embedder?: Embedder
  /**
   * Called once a new version (2 or more) of a file is ingested and its passages stored (issue
   * 28): file `fileId` of org `orgId` now reads as `version`; the previous one was `version - 1`.
   * At least once per ingest of that version (a reprocess calls it again); errors are logged.
   */
  onVersionReady?: VersionReadyHook
  /** Called after files are deleted, with their ids: the answers quoting them are told. */
  onFilesDeleted?: (orgId: number, fileIds: number[]) => Promise<void>
}

export type VersionReadyHook = (orgId: number, fileId: number, version: number) => Promise<void>

export const FILE_COLUMNS = `f.id, f.name, f.kind, f.mime, f.size_bytes, f.tags, f.status, f.progress, f.error,
  f.source_url, f.pages, f.passage_count, f.created_at, f.updated_at, f.processed_at, f.version,
  f.product_id, u.id as user_id, u.first_name, u.last_name, u.email`

export interface FileRow {
  id: string
  name: string
  kind: FileKind
  mime: string
  size_bytes: string
  tags: string[]
  status: FileStatus
  progress: number
  error: string | null
  source_url: string | null
  pages: number | null
  passage_count: number
  created_at: Date
  updated_at: Date
  processed_at: Date | null
  version: number
  product_id: string | null
  user_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
}

export function toFile(row: FileRow): RepositoryFile {
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind,
    mime: row.mime,
    size: Number(row.size_bytes),
    tags: row.tags,
    status: row.status,
    progress: row.status === 'ready' ? 100 : row.progress,
    error: row.status === 'failed' ? row.error : null,
    source_url: row.source_url,
    pages: row.pages,
    passages: row.passage_count,
    added_by: personOf(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    processed_at: row.processed_at?.toISOString() ?? null,
    version: row.version,
    product_id: row.product_id === null ? null : Number(row.product_id),
  }
}

/** Tags trimmed, empty ones dropped, duplicates removed ignoring case; first spelling wins. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>()
  const result: string[] = []
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ')
    if (!tag || seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    result.push(tag)
  }
  return result
}

/**
 * A passage `p` that is not the second or later part of a completed questionnaire's row: a long
 * row is cut into several passages (server/ingest/chunk.ts), each carrying the row's question and
 * answer; lists of rows show it once.
 */
export const FIRST_PART_OF_ROW = `(p.qa_question is null or not exists (
  select 1 from file_passages e where e.file_id = p.file_id and e.ordinal = p.ordinal - 1
     and e.qa_question = p.qa_question and e.location = p.location))`

export { displayName } from '../../http/multipart.ts'
