import path from 'node:path'
import type { FileKind, FileStatus, RepositoryFile } from '../../../contract/knowledge.ts'
import { fillText, KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import type { Embedder } from '../../answering/embeddings.ts'
import type { Database } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import {
  detectFileKind,
  kindFromName,
  mimeOf,
  ParseError,
  type ParseLimits,
  parseFile,
} from '../../ingest/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import { safeFetch, UrlFetchError } from '../../net/safe-fetch.ts'
import type { Storage, TempFile } from '../../storage/index.ts'
import { embedMissing } from '../answering/store.ts'

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
}

const FILE_COLUMNS = `f.id, f.name, f.kind, f.mime, f.size_bytes, f.tags, f.status, f.progress, f.error,
  f.source_url, f.pages, f.passage_count, f.created_at, f.updated_at, f.processed_at,
  u.id as user_id, u.first_name, u.last_name, u.email`

interface FileRow {
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
    added_by: row.user_id
      ? {
          id: String(row.user_id),
          name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || (row.email ?? ''),
          email: row.email ?? '',
        }
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    processed_at: row.processed_at?.toISOString() ?? null,
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

/** A display name safe to show and to put in a header: no paths, no control characters. */
export function displayName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return (clean || 'file').slice(0, 255)
}

export function createRepositoryService(deps: RepositoryDeps) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'repository' })

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
    const orderings: Record<string, string> = {
      '-created_at': 'f.created_at desc, f.id desc',
      created_at: 'f.created_at asc, f.id asc',
      name: 'lower(f.name) asc, f.id asc',
      '-name': 'lower(f.name) desc, f.id desc',
      size: 'f.size_bytes asc, f.id asc',
      '-size': 'f.size_bytes desc, f.id desc',
    }
    const order = orderings[query.ordering] ?? orderings['-created_at']
    // the page and the total in one statement: the count is a subquery run once, so that only
    // the page's rows are joined and read out; a page past the end asks for the count alone
    const counting = `select count(*) from repository_files f where ${where.join(' and ')}`
    const { rows } = await pool.query<FileRow & { total: number }>(
      `select ${FILE_COLUMNS}, (${counting}) as total
         from repository_files f left join users u on u.id = f.created_by
        where ${where.join(' and ')} order by ${order}
        limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, query.page_size, (query.page - 1) * query.page_size],
    )
    let count = rows[0]?.total ?? 0
    if (rows.length === 0 && query.page > 1) {
      const counted = await pool.query<{ count: number }>(counting, values)
      count = counted.rows[0]?.count ?? 0
    }
    return { count, results: rows.map(toFile) }
  }

  /** Locks the org's license row and refuses when `adding` more files would pass max_repository (TI6). */
  async function reserve(client: { query: typeof pool.query }, orgId: number, adding: number) {
    const { rows } = await client.query<{ max_repository: number }>(
      'select max_repository from licenses where org_id = $1 for update',
      [orgId],
    )
    const limit = rows[0]?.max_repository
    if (limit === undefined || limit === null || limit < 0) return
    const used = await client.query<{ count: string }>(
      'select count(*) from repository_files where org_id = $1',
      [orgId],
    )
    if (Number(used.rows[0]?.count ?? 0) + adding > limit) {
      throw apiError(403, fillText(KNOWLEDGE_TEXTS.repositoryFull, { limit }), {
        code: 'limit_reached',
      })
    }
  }

  async function queue(ids: number[]) {
    if (!deps.jobs) return
    for (const id of ids) {
      await deps.jobs.send(INGEST_JOB, { fileId: id }, { retryLimit: 1, retryDelay: 5 })
    }
  }

  /** Stores uploaded temp files as new repository files, all or nothing. */
  async function addUploads(
    orgId: number,
    userId: number,
    uploads: { temp: TempFile; filename: string }[],
    tags: string[],
  ): Promise<RepositoryFile[]> {
    const detected: { kind: FileKind; mime: string }[] = []
    for (const upload of uploads) {
      const name = displayName(upload.filename)
      if (upload.temp.size === 0)
        throw apiError(400, fillText(KNOWLEDGE_TEXTS.emptyFile, { name }), { code: 'empty_file' })
      const result = await detectFileKind(upload.temp.path, name)
      if (!result.ok && result.reason === 'unsafe') {
        throw apiError(
          422,
          fillText(KNOWLEDGE_TEXTS.unsafePackage, { name, reason: result.message }),
          {
            code: 'unsafe_file',
          },
        )
      }
      if (!result.ok) {
        const claimed = kindFromName(name)
        const text =
          result.reason === 'mismatch' && claimed
            ? fillText(KNOWLEDGE_TEXTS.typeMismatch, { name, kind: claimed.toUpperCase() })
            : fillText(KNOWLEDGE_TEXTS.unsupportedType, { name })
        throw apiError(415, text, { code: 'unsupported_media_type' })
      }
      detected.push({ kind: result.kind, mime: result.mime })
    }
    const client = await pool.connect()
    const ids: number[] = []
    try {
      await client.query('begin')
      await reserve(client, orgId, uploads.length)
      for (const [index, upload] of uploads.entries()) {
        const kind = detected[index] as { kind: FileKind; mime: string }
        const key = await deps.storage.commit(orgId, upload.temp)
        const { rows } = await client.query<{ id: string }>(
          `insert into repository_files (org_id, name, kind, mime, size_bytes, sha256, storage_key, tags, status, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9) returning id`,
          [
            orgId,
            displayName(upload.filename),
            kind.kind,
            kind.mime,
            upload.temp.size,
            upload.temp.sha256,
            key,
            cleanTags(tags),
            userId,
          ],
        )
        ids.push(Number(rows[0]?.id))
      }
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    await queue(ids)
    return Promise.all(ids.map((id) => getFile(orgId, id)))
  }

  async function addUrl(orgId: number, userId: number, url: URL, tags: string[]) {
    const client = await pool.connect()
    let id: number
    try {
      await client.query('begin')
      await reserve(client, orgId, 1)
      const name = `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`.slice(0, 255)
      const { rows } = await client.query<{ id: string }>(
        `insert into repository_files (org_id, name, kind, mime, size_bytes, tags, status, source_url, created_by)
         values ($1, $2, 'html', 'text/html', 0, $3, 'queued', $4, $5) returning id`,
        [orgId, name, cleanTags(tags), url.toString(), userId],
      )
      id = Number(rows[0]?.id)
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    await queue([id])
    return getFile(orgId, id)
  }

  /** Deletes files of the org; other ids are ignored. Blobs go after the rows are gone. */
  async function remove(orgId: number, ids: number[]) {
    const { rows } = await pool.query<{ storage_key: string | null }>(
      'delete from repository_files where org_id = $1 and id = any($2::bigint[]) returning storage_key',
      [orgId, ids],
    )
    for (const row of rows)
      if (row.storage_key) await deps.storage.delete(orgId, row.storage_key).catch(() => undefined)
    return rows.length
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

  async function blob(orgId: number, id: number) {
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
    const license = await pool.query<{ max_repository: number }>(
      'select max_repository from licenses where org_id = $1',
      [orgId],
    )
    const count = byKind.rows.reduce((sum, row) => sum + Number(row.count), 0)
    const bytes = byKind.rows.reduce((sum, row) => sum + Number(row.bytes), 0)
    const max = license.rows[0]?.max_repository ?? null
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

  /* ------------------------------------------------------------ ingestion */

  async function fetchUrl(file: { id: number; org_id: number; source_url: string }) {
    const fetched = await safeFetch(file.source_url, { allow: deps.urlFetchAllow })
    const temp = await deps.storage.tempFromBuffer(fetched.body)
    try {
      let kind: FileKind
      let mime: string
      if (fetched.contentType === 'text/html' || fetched.contentType === 'application/xhtml+xml') {
        kind = 'html'
        mime = mimeOf('html')
      } else {
        const byType: Record<string, string> = {
          'application/pdf': '.pdf',
          'text/plain': '.txt',
          'text/markdown': '.md',
          'text/csv': '.csv',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
        }
        const filename =
          fetched.filename && kindFromName(fetched.filename)
            ? fetched.filename
            : `document${byType[fetched.contentType] ?? ''}`
        const detected = await detectFileKind(temp.path, filename)
        if (!detected.ok)
          throw new ParseError('The address does not point to a page or document Quire can read')
        kind = detected.kind
        mime = detected.mime
      }
      const key = await deps.storage.commit(file.org_id, temp)
      const name = displayName(
        fetched.filename && kind !== 'html'
          ? fetched.filename
          : new URL(fetched.finalUrl).hostname + new URL(fetched.finalUrl).pathname,
      )
      const { rowCount } = await pool.query(
        `update repository_files set storage_key = $3, kind = $4, mime = $5, size_bytes = $6, sha256 = $7, name = $8, updated_at = now()
          where org_id = $1 and id = $2`,
        [file.org_id, file.id, key, kind, mime, temp.size, temp.sha256, name],
      )
      if (!rowCount) await deps.storage.delete(file.org_id, key)
      return { key, kind }
    } catch (error) {
      await deps.storage.discard(temp)
      throw error
    }
  }

  async function ingest(fileId: number) {
    const { rows } = await pool.query<{
      id: string
      org_id: string
      name: string
      kind: FileKind
      storage_key: string | null
      source_url: string | null
    }>(
      `update repository_files set status = 'processing', progress = 0, error = null, processing_started_at = now(), updated_at = now()
        where id = $1 returning id, org_id, name, kind, storage_key, source_url`,
      [fileId],
    )
    const row = rows[0]
    if (!row) return // deleted meanwhile
    const orgId = Number(row.org_id)
    const fail = async (message: string) => {
      await pool.query(
        `update repository_files set status = 'failed', error = $2, progress = 0, updated_at = now() where id = $1`,
        [fileId, message],
      )
    }
    try {
      let key = row.storage_key
      let kind = row.kind
      if (row.source_url && !key) {
        const fetched = await fetchUrl({ id: fileId, org_id: orgId, source_url: row.source_url })
        key = fetched.key
        kind = fetched.kind
      }
      if (!key) throw new ParseError('The file is missing. Upload it again.')
      let lastWrite = 0
      const result = await parseFile(deps.storage.pathOf(orgId, key), kind, {
        name: row.name,
        limits: deps.parseLimits,
        onProgress: (fraction) => {
          const now = Date.now()
          if (now - lastWrite < 500) return
          lastWrite = now
          void pool
            .query(
              `update repository_files set progress = $2 where id = $1 and status = 'processing'`,
              [fileId, Math.min(99, Math.round(fraction * 95))],
            )
            .catch(() => undefined)
        },
      })
      const client = await pool.connect()
      try {
        await client.query('begin')
        const locked = await client.query(
          'select id from repository_files where id = $1 for update',
          [fileId],
        )
        if (!locked.rowCount) {
          await client.query('rollback')
          return
        }
        await client.query('delete from file_passages where file_id = $1', [fileId])
        const passages = result.passages
        for (let start = 0; start < passages.length; start += 1000) {
          const batch = passages.slice(start, start + 1000)
          await client.query(
            `insert into file_passages (org_id, file_id, ordinal, text, location, heading, qa_question, qa_answer)
             select $1, $2, t.ordinal, t.text, t.location, t.heading, t.qa_question, t.qa_answer
               from unnest($3::int[], $4::text[], $5::jsonb[], $6::text[], $7::text[], $8::text[])
                 as t(ordinal, text, location, heading, qa_question, qa_answer)`,
            [
              orgId,
              fileId,
              batch.map((_, i) => start + i),
              batch.map((p) => p.text),
              batch.map((p) => JSON.stringify(p.location)),
              batch.map((p) => p.location.heading ?? null),
              batch.map((p) => p.qa?.question ?? null),
              batch.map((p) => p.qa?.answer ?? null),
            ],
          )
        }
        const title =
          result.title && row.source_url && kind === 'html' ? result.title.slice(0, 255) : null
        await client.query(
          `update repository_files set status = 'ready', progress = 100, error = null, pages = $2, passage_count = $3,
             processed_at = now(), updated_at = now(), name = coalesce($4, name) where id = $1`,
          [fileId, result.pages, passages.length, title],
        )
        await client.query('commit')
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
      // the file is ready and searchable by its words; vectors follow (a failing model is logged
      // and the next generation fills in what is missing)
      if (deps.embedder) await embedMissing(deps.database, deps.embedder, log, { orgId, fileId })
    } catch (error) {
      if (error instanceof ParseError || error instanceof UrlFetchError) {
        await fail(error.message)
        log.info({ fileId, err: error.message, cause: String(error.cause ?? '') }, 'file failed')
        return
      }
      log.error({ err: error, fileId }, 'ingestion failed')
      await fail('Something went wrong while reading the file. Reprocess it to try again.')
    }
  }

  /**
   * After a crash (DU1): rows stuck in processing longer than `staleMs` fail with a message
   * that says what to do, temp files and unreferenced blobs are removed, and queued rows whose job
   * may have been lost are queued again.
   */
  async function reap(staleMs: number, options: { requeue?: boolean } = {}) {
    const stuck = await pool.query(
      `update repository_files set status = 'failed', progress = 0,
          error = 'Processing was interrupted. Reprocess the file to try again.', updated_at = now()
        where status = 'processing' and processing_started_at < now() - ($1::int * interval '1 millisecond')`,
      [staleMs],
    )
    const swept = await deps.storage.sweep(async (orgId, key) => {
      const { rowCount } = await pool.query(
        `select 1 from repository_files where org_id = $1 and storage_key = $2
         union all select 1 from questionnaires where org_id = $1 and storage_key = $2
         union all select 1 from filled_files where org_id = $1 and storage_key = $2 limit 1`,
        [orgId, key],
      )
      return Boolean(rowCount)
    }, 60_000)
    if (options.requeue === false) return { failed: stuck.rowCount ?? 0, ...swept, requeued: 0 }
    const queued = await pool.query<{ id: string }>(
      `select id from repository_files where status = 'queued' and updated_at < now() - interval '1 minute'`,
    )
    await queue(queued.rows.map((r) => Number(r.id)))
    return { failed: stuck.rowCount ?? 0, ...swept, requeued: queued.rowCount ?? 0 }
  }

  return {
    getFile,
    list,
    addUploads,
    addUrl,
    remove,
    reprocess,
    updateTags,
    blob,
    stats,
    ingest,
    reap,
  }
}

export type RepositoryService = ReturnType<typeof createRepositoryService>
