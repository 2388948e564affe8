import type {
  FileKind,
  FileVersion,
  RepositoryFile,
  UploadedFile,
} from '../../../contract/knowledge.ts'
import { FILE_KINDS, fillText, KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { forbidden } from '../../auth/permissions.ts'
import { writeAudit } from '../../db/audit.ts'
import { inTransaction } from '../../db/index.ts'
import { personOf, type UserCols } from '../../db/people.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { detectUpload } from '../../http/multipart.ts'
import type { Storage, TempFile } from '../../storage/index.ts'
import { cleanTags, displayName, type RepositoryDeps } from './shared.ts'

/**
 * Versions of a repository file (issue 28). A file's row is its current version; uploading a file
 * with its name (ignoring case; links are not files) or replacing it makes a new version: the row
 * keeps its id (answers cite files by id), its version goes up by one, it takes the new blob and is
 * ingested again, and the previous version's metadata and blob move to `repository_file_versions`.
 * The same bytes as the current version change nothing. Deleting the file deletes every version.
 *
 * When a new version's passages are stored, ingestion.ts calls `deps.onVersionReady(orgId,
 * fileId, version)` (optional; see RepositoryDeps) so that answers citing the file can be checked.
 */

interface Queryable {
  query: import('pg').Pool['query']
}

export type VersionOutcome = 'new' | 'unchanged'

/** The org's file (not a link) called `name`, ignoring case; its row is locked. Newest first. */
export async function fileNamed(client: Queryable, orgId: number, name: string) {
  const { rows } = await client.query<{ id: string; created_by: string | null }>(
    `select id, created_by from repository_files
      where org_id = $1 and source_url is null and lower(name) = lower($2)
      order by created_at desc, id desc limit 1 for update`,
    [orgId, name],
  )
  const row = rows[0]
  return row
    ? { id: Number(row.id), createdBy: row.created_by ? Number(row.created_by) : null }
    : null
}

/**
 * Makes an upload the file's next version, in the caller's transaction (the row is locked by it):
 * the current version is kept in repository_file_versions and the row takes the new blob, queued
 * for ingestion (its passages are replaced then, as a reprocess does). `name` is kept unless given.
 */
export async function stackVersion(
  client: Queryable,
  storage: Storage,
  upload: {
    orgId: number
    fileId: number
    userId: number
    temp: TempFile
    kind: FileKind
    mime: string
    name?: string
    tags?: string[]
    /** Thrown when the upload would change the file and the caller may not (not its owner). */
    refusal?: Error
  },
): Promise<VersionOutcome> {
  const { orgId, fileId } = upload
  const { rows } = await client.query<{ sha256: string | null; tags: string[] }>(
    'select sha256, tags from repository_files where org_id = $1 and id = $2 for update',
    [orgId, fileId],
  )
  const current = rows[0]
  if (!current) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
  if (current.sha256 && current.sha256 === upload.temp.sha256) return 'unchanged'
  if (upload.refusal) throw upload.refusal
  await client.query(
    `insert into repository_file_versions
       (file_id, org_id, version, name, kind, mime, size_bytes, sha256, storage_key, created_by, created_at)
     select id, org_id, version, name, kind, mime, size_bytes, sha256, storage_key,
            case when version = 1 then created_by else version_created_by end,
            coalesce(version_created_at, created_at)
       from repository_files where org_id = $1 and id = $2`,
    [orgId, fileId],
  )
  const key = await storage.commit(orgId, upload.temp)
  const { rows: stacked } = await client.query<{ name: string; version: number }>(
    `update repository_files
        set name = coalesce($3, name), kind = $4, mime = $5, size_bytes = $6, sha256 = $7,
            storage_key = $8, tags = $9, version = version + 1, version_created_at = now(),
            version_created_by = $10, status = 'queued', progress = 0, error = null, updated_at = now()
      where org_id = $1 and id = $2 returning name, version`,
    [
      orgId,
      fileId,
      upload.name ?? null,
      upload.kind,
      upload.mime,
      upload.temp.size,
      upload.temp.sha256,
      key,
      cleanTags([...current.tags, ...(upload.tags ?? [])]),
      upload.userId,
    ],
  )
  await writeAudit(
    client,
    { orgId, actorId: upload.userId },
    {
      action: 'file.version_added',
      target: `file:${fileId}`,
      name: stacked[0]?.name ?? null,
      detail: { version: stacked[0]?.version },
    },
  )
  return 'new'
}

/** Deletes the versions of the files (before the files themselves); the blobs to delete. */
export async function deleteVersions(client: Queryable, orgId: number, fileIds: number[]) {
  const { rows } = await client.query<{ storage_key: string | null }>(
    `delete from repository_file_versions where org_id = $1 and file_id = any($2::bigint[])
      returning storage_key`,
    [orgId, fileIds],
  )
  return rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []))
}

/** The file as an upload answers it: with whether it became a new version. */
export const uploaded = (
  file: RepositoryFile,
  outcome: VersionOutcome | 'added',
): UploadedFile => ({
  ...file,
  new_version: outcome === 'new',
  unchanged: outcome === 'unchanged',
})

type VersionRow = UserCols & {
  version: number
  name: string
  kind: FileKind
  mime: string
  size_bytes: string
  sha256: string | null
  created_at: Date
}

const toVersion = (row: VersionRow, current: boolean): FileVersion => ({
  version: row.version,
  name: row.name,
  kind: row.kind,
  mime: row.mime,
  size_bytes: Number(row.size_bytes),
  sha256: row.sha256,
  created_at: row.created_at.toISOString(),
  created_by: personOf(row),
  current,
})

const PERSON = 'u.id as user_id, u.first_name, u.last_name, u.email'

/** Replace, the version list and old versions' downloads, on top of the file records. */
export function createVersions(
  deps: RepositoryDeps,
  files: {
    getFile(orgId: number, id: number): Promise<RepositoryFile>
    queue(ids: number[]): Promise<void>
    blob(
      orgId: number,
      id: number,
      actorId?: number,
    ): Promise<{ name: string; mime: string; size: number; stream: NodeJS.ReadableStream }>
  },
) {
  const { pool } = deps.database

  /**
   * POST files/{id}/replace/: the upload becomes the file's next version, whatever its name. The
   * file keeps its name, unless the new version is of another kind (a DOCX replacing a PDF): then
   * it takes the uploaded name, so that its name does not promise the wrong format. With `ownedBy`
   * (a role without repository.delete), only that user's own files can be replaced.
   */
  async function replace(
    orgId: number,
    userId: number,
    id: number,
    upload: { temp: TempFile; filename: string },
    ownedBy?: number,
  ): Promise<UploadedFile> {
    const detected = await detectUpload(upload, FILE_KINDS, KNOWLEDGE_TEXTS.unsupportedType)
    const outcome = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{
        kind: FileKind
        source_url: string | null
        created_by: string | null
      }>(
        'select kind, source_url, created_by from repository_files where org_id = $1 and id = $2 for update',
        [orgId, id],
      )
      const row = rows[0]
      if (!row) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
      if (row.source_url) throw apiError(409, KNOWLEDGE_TEXTS.replaceLink, { code: 'conflict' })
      return stackVersion(client, deps.storage, {
        orgId,
        fileId: id,
        userId,
        temp: upload.temp,
        kind: detected.kind,
        mime: detected.mime,
        name: detected.kind === row.kind ? undefined : displayName(upload.filename),
        refusal:
          ownedBy !== undefined && Number(row.created_by) !== ownedBy
            ? forbidden(KNOWLEDGE_TEXTS.replaceOthersFiles)
            : undefined,
      })
    })
    if (outcome === 'new') await files.queue([id])
    return uploaded(await files.getFile(orgId, id), outcome)
  }

  /** GET files/{id}/versions/: every version, newest first; the file's row is the current one. */
  async function versions(orgId: number, id: number) {
    const { rows } = await pool.query<VersionRow>(
      `select f.version, f.name, f.kind, f.mime, f.size_bytes, f.sha256,
              coalesce(f.version_created_at, f.created_at) as created_at, ${PERSON}
         from repository_files f
         left join users u on u.id = case when f.version = 1 then f.created_by else f.version_created_by end
        where f.org_id = $1 and f.id = $2`,
      [orgId, id],
    )
    const current = rows[0]
    if (!current) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    const older = await pool.query<VersionRow>(
      `select v.version, v.name, v.kind, v.mime, v.size_bytes, v.sha256, v.created_at, ${PERSON}
         from repository_file_versions v left join users u on u.id = v.created_by
        where v.org_id = $1 and v.file_id = $2 and v.version < $3
        order by v.version desc`,
      [orgId, id, current.version],
    )
    const results = [toVersion(current, true), ...older.rows.map((row) => toVersion(row, false))]
    return { file_id: id, count: results.length, results }
  }

  /** GET files/{id}/versions/{version}/download/: that version's blob (the current one too). */
  async function versionBlob(orgId: number, id: number, version: number, actorId?: number) {
    const { rows } = await pool.query<{ version: number }>(
      'select version from repository_files where org_id = $1 and id = $2',
      [orgId, id],
    )
    const file = rows[0]
    if (!file) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    if (file.version === version) return files.blob(orgId, id, actorId)
    const older = await pool.query<{
      name: string
      mime: string
      size_bytes: string
      storage_key: string | null
    }>(
      `select name, mime, size_bytes, storage_key from repository_file_versions
        where org_id = $1 and file_id = $2 and version = $3`,
      [orgId, id, version],
    )
    const row = older.rows[0]
    if (!row?.storage_key) throw notFound(KNOWLEDGE_TEXTS.versionNotFound)
    if (actorId !== undefined)
      await writeAudit(
        pool,
        { orgId, actorId },
        {
          action: 'file.downloaded',
          target: `file:${id}`,
          name: row.name,
          detail: { version },
        },
      )
    return {
      name: row.name,
      mime: row.mime,
      size: Number(row.size_bytes),
      stream: deps.storage.open(orgId, row.storage_key),
    }
  }

  return { replace, versions, versionBlob }
}

/** The refusal of a same-name upload onto a file someone else uploaded (without repository.delete). */
export const othersFile = (name: string) =>
  forbidden(fillText(KNOWLEDGE_TEXTS.versionOthersFile, { name }))
