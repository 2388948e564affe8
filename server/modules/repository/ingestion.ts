import type { FileKind } from '../../../contract/knowledge.ts'
import { isProductNameField } from '../../answering/submission.ts'
import { inTransaction } from '../../db/index.ts'
import {
  detectFileKind,
  kindFromName,
  mimeOf,
  ParseError,
  parseFile,
  propertiesDate,
  statedInRows,
} from '../../ingest/index.ts'
import { safeFetch, UrlFetchError } from '../../net/safe-fetch.ts'
import { embedMissing } from '../answering/store.ts'
import { guessProduct } from '../products/service.ts'
import type { Files } from './files.ts'
import { displayName, type RepositoryDeps } from './shared.ts'

/**
 * Ingestion as a job: a file is fetched (URLs, through the SSRF guard) and parsed in a parser process into searchable passages; after a crash the reaper fails what was cut off and queues what was lost (DU1).
 */
export function createIngestion(deps: RepositoryDeps, files: Files) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'repository' })

  const { queue } = files

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
      version: number
    }>(
      `update repository_files set status = 'processing', progress = 0, error = null, processing_started_at = now(), updated_at = now()
        where id = $1 returning id, org_id, name, kind, storage_key, source_url, version`,
      [fileId],
    )
    const row = rows[0]
    if (!row) return // deleted meanwhile
    const orgId = Number(row.org_id)
    // a newer version replaced this one meanwhile: its own job reads it, this one writes nothing
    const fail = async (message: string) => {
      await pool.query(
        `update repository_files set status = 'failed', error = $2, progress = 0, updated_at = now()
          where id = $1 and version = $3`,
        [fileId, message, row.version],
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
      const checking = row.version > 1 && Boolean(deps.onVersionReady)
      // a completed questionnaire's own date: its answers' age counts from it (issue 28)
      const statedAt = result.passages.some((passage) => passage.qa)
        ? (statedInRows(result.passages) ??
          (kind === 'xlsx' || kind === 'docx'
            ? await propertiesDate(deps.storage.pathOf(orgId, key))
            : null))
        : null
      const stored = await inTransaction(pool, async (client) => {
        const locked = await client.query<{ version: number }>(
          'select version from repository_files where id = $1 for update',
          [fileId],
        )
        // deleted meanwhile, or a newer version came (its job stores its passages)
        if (locked.rows[0]?.version !== row.version) return false
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
        // a new version is ready once the answers quoting it are checked (below)
        await client.query(
          `update repository_files set status = $5, progress = $6, error = null, pages = $2, passage_count = $3,
             processed_at = now(), updated_at = now(), name = coalesce($4, name), stated_at = $7 where id = $1`,
          [
            fileId,
            result.pages,
            passages.length,
            title,
            checking ? 'processing' : 'ready',
            checking ? 99 : 100,
            statedAt,
          ],
        )
        // issue 38: a file nobody gave a product speaks for the one its own product field, or
        // else its name, names
        const productField = passages.find(
          (passage) =>
            passage.qa && isProductNameField(passage.qa.question) && passage.qa.answer.trim(),
        )
        await guessProduct(client, orgId, { table: 'repository_files', id: fileId }, [
          productField?.qa?.answer.split('\n')[0],
          row.name,
        ])
        return true
      })
      if (!stored) return
      if (checking && deps.onVersionReady) {
        // issue 28: a new version is readable; the answers quoting the file look again before
        // the file shows as ready, so that whoever waits for it sees them flagged
        await deps.onVersionReady(orgId, fileId, row.version).catch((error: unknown) => {
          log.error({ err: error, fileId, version: row.version }, 'new version hook failed')
        })
        await pool.query(
          `update repository_files set status = 'ready', progress = 100, updated_at = now()
            where id = $1 and version = $2 and status = 'processing'`,
          [fileId, row.version],
        )
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
         union all select 1 from repository_file_versions where org_id = $1 and storage_key = $2
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

  return { ingest, reap }
}

export type Ingestion = ReturnType<typeof createIngestion>
