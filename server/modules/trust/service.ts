import type pg from 'pg'
import {
  DEFAULT_TRUST_SETTINGS,
  type PublicTrustPage,
  TRUST_TEXTS,
  type TrustSection,
  type TrustSettings,
  type TrustSettingsUpdate,
  type TrustVisibility,
} from '../../../contract/trust.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { Storage } from '../../storage/index.ts'
import { isUniqueViolation } from '../auth/shared.ts'

/**
 * The trust centre (issue 40), first slice: its settings, what of the repository and the library
 * is on it, and the public page's content. The public side reads only rows marked public (or
 * under NDA, listed by name only), of a published page, by its slug: nothing else of the
 * organisation is ever selected for it, so nothing private can leak through it.
 */

interface PageRow {
  org_id: string
  published: boolean
  slug: string | null
  sections: TrustSection[]
  overview: string
  contact_email: string | null
  certifications: TrustSettings['certifications']
  subprocessors: TrustSettings['subprocessors']
  updates: TrustSettings['updates']
  nda_text: string
  nda_version: number
  auto_approve_domains: string[]
  grant_days: number
  updated_at: Date | null
}

const toSettings = (row: PageRow): TrustSettings => ({
  published: row.published,
  slug: row.slug,
  sections: row.sections,
  overview: row.overview,
  contact_email: row.contact_email,
  certifications: row.certifications,
  subprocessors: row.subprocessors,
  updates: row.updates,
  nda_text: row.nda_text,
  nda_version: row.nda_version,
  auto_approve_domains: row.auto_approve_domains,
  grant_days: row.grant_days,
  updated_at: row.updated_at?.toISOString() ?? null,
})

/** How long a node keeps a public page before reading it again. */
const PAGE_TTL_MS = 2_000

/** The same answer for an unknown slug, an unpublished page and a document not on it. */
export const trustNotFound = () => notFound(TRUST_TEXTS.notFound)

export function createTrustService(deps: { database: Database; storage: Storage }) {
  const pool: pg.Pool = deps.database.pool

  async function settings(orgId: number): Promise<TrustSettings> {
    const { rows } = await pool.query<PageRow>('select * from trust_pages where org_id = $1', [
      orgId,
    ])
    return rows[0] ? toSettings(rows[0]) : DEFAULT_TRUST_SETTINGS
  }

  async function update(
    orgId: number,
    userId: number,
    input: TrustSettingsUpdate,
  ): Promise<TrustSettings> {
    try {
      await inTransaction(pool, async (client) => {
        await client.query(
          `insert into trust_pages (org_id, sections) values ($1, $2) on conflict (org_id) do nothing`,
          [orgId, JSON.stringify(DEFAULT_TRUST_SETTINGS.sections)],
        )
        const { rows } = await client.query<PageRow>(
          'select * from trust_pages where org_id = $1 for update',
          [orgId],
        )
        const before = toSettings(rows[0] as PageRow)
        const next = { ...before, ...definedOf(input) }
        if (next.published && !next.slug) {
          throw apiError(400, TRUST_TEXTS.slugNeeded, {
            code: 'validation_error',
            detail: [{ field: 'slug', message: TRUST_TEXTS.slugNeeded }],
          })
        }
        const ndaChanged = input.nda_text !== undefined && input.nda_text !== before.nda_text
        await client.query(
          `update trust_pages set published = $2, slug = $3, sections = $4, overview = $5,
              contact_email = $6, certifications = $7, subprocessors = $8, updates = $9,
              nda_text = $10, nda_version = nda_version + $11, auto_approve_domains = $12,
              grant_days = $13, updated_at = now(), updated_by = $14
            where org_id = $1`,
          [
            orgId,
            next.published,
            next.slug,
            JSON.stringify(next.sections),
            next.overview,
            next.contact_email,
            JSON.stringify(next.certifications),
            JSON.stringify(next.subprocessors),
            JSON.stringify(next.updates),
            next.nda_text,
            ndaChanged ? 1 : 0,
            next.auto_approve_domains,
            next.grant_days,
            userId,
          ],
        )
        await writeAudit(
          client,
          { orgId, actorId: userId },
          {
            action:
              before.published === next.published
                ? 'trust.updated'
                : next.published
                  ? 'trust.published'
                  : 'trust.unpublished',
            target: `trust:${orgId}`,
            name: next.slug ?? '',
          },
        )
      })
    } catch (error) {
      if (isUniqueViolation(error))
        throw apiError(409, TRUST_TEXTS.slugTaken, {
          code: 'conflict',
          detail: [{ field: 'slug', message: TRUST_TEXTS.slugTaken }],
        })
      throw error
    }
    forget(orgId)
    return settings(orgId)
  }

  /** A repository file's place on the trust centre; another organisation's file is a 404. */
  async function setFileVisibility(
    orgId: number,
    userId: number,
    fileId: number,
    visibility: TrustVisibility,
  ) {
    const { rows } = await pool.query<{ id: string; name: string }>(
      `update repository_files set trust_visibility = $3 where org_id = $1 and id = $2
       returning id, name`,
      [orgId, fileId, visibility],
    )
    if (!rows[0]) throw notFound('File not found')
    forget(orgId)
    await writeAudit(
      pool,
      { orgId, actorId: userId },
      { action: `trust.file_${visibility}`, target: `file:${fileId}`, name: rows[0].name },
    )
    return { id: fileId, visibility }
  }

  /** A Q&A item published on the trust centre or not; another organisation's item is a 404. */
  async function setQaVisibility(
    orgId: number,
    userId: number,
    qaId: number,
    visibility: 'private' | 'public',
  ) {
    const { rows } = await pool.query<{ question: string }>(
      `update kb_qa_items set trust_visibility = $3 where org_id = $1 and id = $2
       returning question`,
      [orgId, qaId, visibility],
    )
    if (!rows[0]) throw notFound('Knowledge item not found')
    forget(orgId)
    await writeAudit(
      pool,
      { orgId, actorId: userId },
      { action: `trust.qa_${visibility}`, target: `qa:${qaId}`, name: rows[0].question },
    )
    return { id: qaId, visibility }
  }

  /** The published page of a slug, with its organisation's id; null for anything else. */
  async function published(slug: string) {
    const { rows } = await pool.query<PageRow & { name: string; logo: boolean }>(
      `select p.*, o.name,
              exists (select 1 from organization_logos l where l.org_id = p.org_id) as logo
         from trust_pages p join organizations o on o.id = p.org_id
        where p.slug = $1 and p.published`,
      [slug.toLowerCase()],
    )
    return rows[0] ?? null
  }

  /**
   * The public page of a slug, read again at most every PAGE_TTL_MS on each node (a crowd of
   * visitors costs the database one read a second); this node forgets it at once when its
   * organisation changes what is on it.
   */
  const cache = new Map<string, { at: number; orgId: number; page: PublicTrustPage | null }>()
  async function cachedPage(slug: string) {
    const key = slug.toLowerCase()
    const hit = cache.get(key)
    if (hit && Date.now() - hit.at < PAGE_TTL_MS) return hit
    const row = await published(key)
    const entry = {
      at: Date.now(),
      orgId: row ? Number(row.org_id) : 0,
      page: row ? await pageOf(row) : null,
    }
    if (cache.size > 1000) cache.clear()
    cache.set(key, entry)
    return entry
  }
  const forget = (orgId: number) => {
    for (const [key, entry] of cache)
      if (entry.orgId === orgId || entry.orgId === 0) cache.delete(key)
  }

  /**
   * The published page (public items only) and its organisation's id, for the page as JSON and
   * as HTML, the reader call and the logo (one read, cached).
   */
  async function pageAndOrg(slug: string) {
    const entry = await cachedPage(slug)
    if (!entry.page) throw trustNotFound()
    return { page: entry.page, orgId: entry.orgId }
  }

  async function pageOf(row: PageRow & { name: string; logo: boolean }): Promise<PublicTrustPage> {
    const orgId = Number(row.org_id)
    const [practices, documents] = await Promise.all([
      pool.query<{ id: string; question: string; answer: string }>(
        `select id, question, answer from kb_qa_items
          where org_id = $1 and trust_visibility = 'public' order by question limit 500`,
        [orgId],
      ),
      pool.query<{
        id: string
        name: string
        size_bytes: string
        trust_visibility: 'public' | 'nda'
      }>(
        `select id, name, size_bytes, trust_visibility from repository_files
          where org_id = $1 and trust_visibility in ('public', 'nda') and status = 'ready'
            and storage_key is not null
          order by name limit 500`,
        [orgId],
      ),
    ])
    const onPage = new Set(documents.rows.map((file) => Number(file.id)))
    return {
      slug: row.slug as string,
      organization: { name: row.name, logo: row.logo },
      sections: row.sections,
      overview: row.overview,
      certifications: row.certifications.map((item) => ({
        name: item.name,
        date: item.date ?? null,
        document_id: item.file_id && onPage.has(item.file_id) ? item.file_id : null,
      })),
      practices: practices.rows.map((item) => ({
        id: Number(item.id),
        question: item.question,
        answer: item.answer,
      })),
      subprocessors: row.subprocessors,
      documents: documents.rows.map((file) => ({
        id: Number(file.id),
        name: file.name,
        size: Number(file.size_bytes),
        visibility: file.trust_visibility,
      })),
      updates: row.updates,
      contact_email: row.contact_email,
      nda: { version: row.nda_version, text: row.nda_text },
    }
  }

  /**
   * A public document of a published page, to download. One under NDA asks for access (401);
   * any other id (private, another organisation's, unknown) answers as an unknown page does.
   */
  async function publicDocument(
    slug: string,
    fileId: number,
    /** Whether the caller holds a reader session on this organisation's page (NDA documents). */
    readerOf?: (orgId: number) => Promise<boolean>,
  ) {
    const row = await published(slug)
    if (!row) throw trustNotFound()
    const { rows } = await pool.query<{
      name: string
      mime: string
      size_bytes: string
      storage_key: string
      trust_visibility: TrustVisibility
    }>(
      `select name, mime, size_bytes, storage_key, trust_visibility from repository_files
        where org_id = $1 and id = $2 and trust_visibility in ('public', 'nda')
          and status = 'ready' and storage_key is not null`,
      [row.org_id, fileId],
    )
    const file = rows[0]
    if (!file) throw trustNotFound()
    const nda = file.trust_visibility !== 'public'
    if (nda && !(await readerOf?.(Number(row.org_id))))
      throw apiError(401, TRUST_TEXTS.ndaNotPublic, { code: 'access_required' })
    return {
      orgId: Number(row.org_id),
      fileId,
      nda,
      name: file.name,
      mime: file.mime,
      size: Number(file.size_bytes),
      stream: deps.storage.open(Number(row.org_id), file.storage_key),
    }
  }

  /** What a request on a published page needs of it; an unknown or unpublished slug is a 404. */
  async function requestPage(slug: string) {
    const row = await published(slug)
    if (!row) throw trustNotFound()
    return {
      orgId: Number(row.org_id),
      slug: row.slug as string,
      name: row.name,
      ndaVersion: row.nda_version,
      ndaText: row.nda_text,
      autoApproveDomains: row.auto_approve_domains,
      grantDays: row.grant_days,
      contactEmail: row.contact_email,
    }
  }

  return {
    settings,
    update,
    setFileVisibility,
    setQaVisibility,
    pageAndOrg,
    publicDocument,
    requestPage,
  }
}

/** The fields given (an update leaves the others as they were). */
function definedOf<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as Partial<T>
}

export type TrustService = ReturnType<typeof createTrustService>
