import { LICENSE_LIMIT } from '../../../contract/billing.ts'
import type {
  FileKind,
  FileStatus,
  RepositoryFile,
  UploadedFile,
} from '../../../contract/knowledge.ts'
import { FILE_KINDS, fillText, KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { forbidden } from '../../auth/permissions.ts'
import { writeAudit } from '../../db/audit.ts'
import { inTransaction } from '../../db/index.ts'
import { fetchPage } from '../../db/paging.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { detectUpload } from '../../http/multipart.ts'
import type { TempFile } from '../../storage/index.ts'
import { limitOf } from '../account/license.ts'
import { checkProduct } from '../products/service.ts'
import {
  cleanTags,
  displayName,
  FILE_COLUMNS,
  type FileRow,
  INGEST_JOB,
  type RepositoryDeps,
  toFile,
} from './shared.ts'
import {
  deleteVersions,
  fileNamed,
  othersFile,
  stackVersion,
  uploaded,
  type VersionOutcome,
} from './versions.ts'

/**
 * The repository's files as records: list, upload (within the license's limit, TI6), add by URL, tags, delete, reprocess, download and statistics. Reading them is a job (ingestion.ts).
 */
export function createFiles(deps: RepositoryDeps) {
  const { pool } = deps.database

  async function getFile(orgId: number, id: number): Promise<RepositoryFile> {
    const { rows } = await pool.query<FileRow>(
      `select ${FILE_COLUMNS} from repository_files f left join users u on u.id = f.created_by
        where f.org_id = $1 and f.id = $2`,
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    return toFile(row)
  }

  async function list(
    orgId: number,
    query: {
      page: number
      page_size: number
      q?: string
      tag?: string
      kind?: FileKind
      status?: FileStatus
      /** A product's id, or 'none' for the files of all products (issue 38). */
      product?: 'none' | number
      ordering: string
    },
  ) {
    const where = ['f.org_id = $1']
    const values: unknown[] = [orgId]
    if (query.q?.trim()) {
      values.push(`%${query.q.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`)
      where.push(`(f.name ilike $${values.length} or f.source_url ilike $${values.length})`)
    }
    if (query.tag) {
      values.push(query.tag.toLowerCase())
      where.push(`exists (select 1 from unnest(f.tags) t where lower(t) = $${values.length})`)
    }
    if (query.kind) {
      values.push(query.kind)
      where.push(`f.kind = $${values.length}`)
    }
    if (query.status) {
      values.push(query.status)
      where.push(`f.status = $${values.length}`)
    }
    if (query.product === 'none') where.push('f.product_id is null')
    else if (query.product !== undefined) {
      values.push(query.product)
      where.push(`f.product_id = $${values.length}`)
    }
    const orderings: Record<string, string> = {
      '-created_at': 'f.created_at desc, f.id desc',
      created_at: 'f.created_at asc, f.id asc',
      name: 'lower(f.name) asc, f.id asc',
      '-name': 'lower(f.name) desc, f.id desc',
      size: 'f.size_bytes asc, f.id asc',
      '-size': 'f.size_bytes desc, f.id desc',
    }
    const order = orderings[query.ordering] ?? (orderings['-created_at'] as string)
    const { count, rows } = await fetchPage<FileRow>(
      pool,
      {
        select: `select ${FILE_COLUMNS} from repository_files f left join users u on u.id = f.created_by`,
        counted: 'repository_files f',
        where: where.join(' and '),
        order,
      },
      values,
      query,
    )
    return { count, results: rows.map(toFile) }
  }

  /** Locks the org's license row and refuses when `adding` more files would pass max_repository (TI6). */
  async function reserve(client: { query: typeof pool.query }, orgId: number, adding: number) {
    const limit = await limitOf(client, orgId, 'max_repository', true)
    if (limit === null) return
    const used = await client.query<{ count: string }>(
      'select count(*) from repository_files where org_id = $1',
      [orgId],
    )
    if (Number(used.rows[0]?.count ?? 0) + adding > limit) {
      throw apiError(403, fillText(KNOWLEDGE_TEXTS.repositoryFull, { limit }), {
        code: LICENSE_LIMIT,
        detail: { limit: 'max_repository', max: limit },
      })
    }
  }

  async function queue(ids: number[]) {
    if (!deps.jobs) return
    for (const id of ids) {
      await deps.jobs.send(INGEST_JOB, { fileId: id }, { retryLimit: 1, retryDelay: 5 })
    }
  }

  /**
   * Stores uploaded temp files, all or nothing: each is a new file, or, when the organisation has
   * a file (not a link) of its name ignoring case, that file's next version (versions.ts; the same
   * bytes change nothing). The license counts new files only. With `ownedBy` (a role without
   * repository.delete), a new version only of that user's own files.
   */
  async function addUploads(
    orgId: number,
    userId: number,
    uploads: { temp: TempFile; filename: string }[],
    tags: string[],
    ownedBy?: number,
    /** The product the files speak for (issue 38); null: the whole company. */
    productId: number | null = null,
  ): Promise<UploadedFile[]> {
    const detected: { kind: FileKind; mime: string }[] = []
    for (const upload of uploads) {
      const { kind, mime } = await detectUpload(upload, FILE_KINDS, KNOWLEDGE_TEXTS.unsupportedType)
      detected.push({ kind, mime })
    }
    const added: { id: number; outcome: VersionOutcome | 'added' }[] = []
    const by = { orgId, actorId: userId }
    await inTransaction(pool, async (client) => {
      // one upload of an organisation at a time: two uploads of a name make one file, two versions
      await client.query(`select pg_advisory_xact_lock(hashtext('repository.upload'), $1::int)`, [
        orgId,
      ])
      await checkProduct(client, orgId, productId)
      const named = new Map<string, { id: number; createdBy: number | null }>()
      for (const upload of uploads) {
        const name = displayName(upload.filename)
        const found = named.has(name.toLowerCase()) ? null : await fileNamed(client, orgId, name)
        if (found) named.set(name.toLowerCase(), found)
      }
      const fresh = new Set(
        uploads.map((u) => displayName(u.filename).toLowerCase()).filter((n) => !named.has(n)),
      )
      if (fresh.size) await reserve(client, orgId, fresh.size)
      for (const [index, upload] of uploads.entries()) {
        const kind = detected[index] as { kind: FileKind; mime: string }
        const name = displayName(upload.filename)
        const existing = named.get(name.toLowerCase())
        if (existing) {
          const outcome = await stackVersion(client, deps.storage, {
            orgId,
            fileId: existing.id,
            userId,
            temp: upload.temp,
            ...kind,
            tags,
            refusal:
              ownedBy !== undefined && existing.createdBy !== ownedBy
                ? othersFile(name)
                : undefined,
          })
          added.push({ id: existing.id, outcome })
          if (productId !== null)
            await client.query(
              'update repository_files set product_id = $3 where org_id = $1 and id = $2',
              [orgId, existing.id, productId],
            )
          continue
        }
        const key = await deps.storage.commit(orgId, upload.temp)
        const { rows } = await client.query<{ id: string }>(
          `insert into repository_files (org_id, name, kind, mime, size_bytes, sha256, storage_key, tags, status, created_by, product_id)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10) returning id`,
          [
            orgId,
            name,
            kind.kind,
            kind.mime,
            upload.temp.size,
            upload.temp.sha256,
            key,
            cleanTags(tags),
            userId,
            productId,
          ],
        )
        const id = Number(rows[0]?.id)
        named.set(name.toLowerCase(), { id, createdBy: userId })
        added.push({ id, outcome: 'added' })
        await writeAudit(client, by, { action: 'file.uploaded', target: `file:${id}`, name })
      }
    })
    await queue([...new Set(added.filter((a) => a.outcome !== 'unchanged').map((a) => a.id))])
    return Promise.all(added.map(async (a) => uploaded(await getFile(orgId, a.id), a.outcome)))
  }

  async function addUrl(orgId: number, userId: number, url: URL, tags: string[]) {
    const id = await inTransaction(pool, async (client) => {
      await reserve(client, orgId, 1)
      const name = `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`.slice(0, 255)
      const { rows } = await client.query<{ id: string }>(
        `insert into repository_files (org_id, name, kind, mime, size_bytes, tags, status, source_url, created_by)
         values ($1, $2, 'html', 'text/html', 0, $3, 'queued', $4, $5) returning id`,
        [orgId, name, cleanTags(tags), url.toString(), userId],
      )
      const id = Number(rows[0]?.id)
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'file.link_added', target: `file:${id}`, name: url.toString() },
      )
      return id
    })
    await queue([id])
    return getFile(orgId, id)
  }

  /**
   * Deletes files of the org (other ids are ignored) with all their versions; with `ownedBy`, only
   * when every one of them is that user's (else 403). Blobs go after the rows are gone.
   */
  async function remove(orgId: number, ids: number[], ownedBy?: number, actorId?: number) {
    if (ownedBy !== undefined) {
      const { rows: others } = await pool.query(
        `select 1 from repository_files
          where org_id = $1 and id = any($2::bigint[]) and created_by is distinct from $3 limit 1`,
        [orgId, ids, ownedBy],
      )
      if (others.length) throw forbidden(KNOWLEDGE_TEXTS.deleteOthersFiles)
    }
    const { count, keys, deleted } = await inTransaction(pool, async (client) => {
      const versionKeys = await deleteVersions(client, orgId, ids)
      const { rows } = await client.query<{ id: string; name: string; storage_key: string | null }>(
        'delete from repository_files where org_id = $1 and id = any($2::bigint[]) returning id, name, storage_key',
        [orgId, ids],
      )
      for (const row of rows)
        await writeAudit(
          client,
          { orgId, actorId: actorId ?? null },
          { action: 'file.deleted', target: `file:${row.id}`, name: row.name },
        )
      const fileKeys = rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []))
      return {
        count: rows.length,
        keys: [...fileKeys, ...versionKeys],
        deleted: rows.map((row) => Number(row.id)),
      }
    })
    for (const key of keys) await deps.storage.delete(orgId, key).catch(() => undefined)
    if (deleted.length && deps.onFilesDeleted)
      await deps
        .onFilesDeleted(orgId, deleted)
        .catch((error: unknown) =>
          deps.logger.error(
            { err: error, orgId },
            'checking answers that quote deleted files failed',
          ),
        )
    return count
  }

  async function reprocess(orgId: number, id: number) {
    const { rowCount } = await pool.query(
      `update repository_files set status = 'queued', progress = 0, error = null, updated_at = now()
        where org_id = $1 and id = $2`,
      [orgId, id],
    )
    if (!rowCount) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    await queue([id])
    return getFile(orgId, id)
  }

  async function updateTags(orgId: number, id: number, tags: string[]) {
    const { rowCount } = await pool.query(
      'update repository_files set tags = $3, updated_at = now() where org_id = $1 and id = $2',
      [orgId, id, cleanTags(tags)],
    )
    if (!rowCount) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    return getFile(orgId, id)
  }

  /** The file's blob; with `actorId`, the download is audited. */
  async function blob(orgId: number, id: number, actorId?: number) {
    const { rows } = await pool.query<{
      name: string
      mime: string
      storage_key: string | null
      size_bytes: string
      kind: FileKind
    }>(
      'select name, mime, storage_key, size_bytes, kind from repository_files where org_id = $1 and id = $2',
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound(KNOWLEDGE_TEXTS.fileNotFound)
    if (!row.storage_key) throw apiError(409, KNOWLEDGE_TEXTS.stillProcessing, { code: 'conflict' })
    if (actorId !== undefined)
      await writeAudit(
        pool,
        { orgId, actorId },
        { action: 'file.downloaded', target: `file:${id}`, name: row.name },
      )
    return {
      ...row,
      size: Number(row.size_bytes),
      stream: deps.storage.open(orgId, row.storage_key),
    }
  }

  async function stats(orgId: number) {
    const byKind = await pool.query<{ kind: FileKind; count: string; bytes: string }>(
      'select kind, count(*), coalesce(sum(size_bytes), 0) as bytes from repository_files where org_id = $1 group by kind order by kind',
      [orgId],
    )
    const byStatus = await pool.query<{ status: FileStatus; count: string }>(
      'select status, count(*) from repository_files where org_id = $1 group by status order by status',
      [orgId],
    )
    const max = await limitOf(pool, orgId, 'max_repository', false)
    const count = byKind.rows.reduce((sum, row) => sum + Number(row.count), 0)
    const bytes = byKind.rows.reduce((sum, row) => sum + Number(row.bytes), 0)
    return {
      total: { count, bytes },
      by_kind: byKind.rows.map((row) => ({
        kind: row.kind,
        count: Number(row.count),
        bytes: Number(row.bytes),
      })),
      by_status: byStatus.rows.map((row) => ({ status: row.status, count: Number(row.count) })),
      max_repository: max,
      remaining: max === null ? null : Math.max(0, max - count),
    }
  }

  return { getFile, list, queue, addUploads, addUrl, remove, reprocess, updateTags, blob, stats }
}

export type Files = ReturnType<typeof createFiles>
