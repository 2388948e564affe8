import type pg from 'pg'
import {
  TRUST_REQUEST_TEXTS,
  type TrustRequest,
  type TrustRequestCreate,
  type TrustRequestStatus,
} from '../../../contract/trust.ts'
import { hashToken, randomToken } from '../../auth/tokens.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { Mailer, MailMessage } from '../../mail/index.ts'
import { compose, link } from '../../mail/messages.ts'
import { channelsOf, type Preferences } from '../notifications/inbox.ts'
import type { NotificationService } from '../notifications/service.ts'
import { emitWebhook } from '../platform/webhooks.ts'

/**
 * Requests for documents under NDA (issue 40). A visitor accepts the page's NDA (its version,
 * text, time, address and browser kept with the request) and asks; a request from an
 * allow-listed domain is approved at once, any other waits for an admin, who is emailed. An
 * approval lasts the page's grant (or the days the admin gives) and emails a one-time link; the
 * link gives a reader session for the grant's length, and a revocation ends it at once.
 */

/** Reader sessions' tokens say what they are: never mistaken for a staff session's. */
const READER_PREFIX = 'tr_'
const DAY_MS = 86_400_000
const DONE = { approve: 'approved', reject: 'rejected', revoke: 'revoked', extend: 'extended' }

interface RequestRow {
  id: string
  org_id: string
  name: string
  email: string
  company: string
  reason: string
  status: TrustRequestStatus
  nda_version: number
  nda_accepted_at: Date
  address: string | null
  user_agent: string | null
  created_at: Date
  decided_at: Date | null
  expires_at: Date | null
  downloads?: string
}

const toRequest = (row: RequestRow): TrustRequest => ({
  id: Number(row.id),
  name: row.name,
  email: row.email,
  company: row.company,
  reason: row.reason,
  status: row.status,
  nda_version: row.nda_version,
  nda_accepted_at: row.nda_accepted_at.toISOString(),
  address: row.address,
  user_agent: row.user_agent,
  created_at: row.created_at.toISOString(),
  decided_at: row.decided_at?.toISOString() ?? null,
  expires_at: row.expires_at?.toISOString() ?? null,
  downloads: Number(row.downloads ?? 0),
})

/** The admins' notification of a request that waits for them. */
export const requestText = (name: string, email: string, company: string) =>
  `${name} (${email}, ${company}) asks for the trust centre's documents under NDA.`

/** What the requests need of the published page they are made on. */
export interface RequestPage {
  orgId: number
  slug: string
  name: string
  ndaVersion: number
  ndaText: string
  autoApproveDomains: string[]
  grantDays: number
}

export function createTrustRequests(deps: {
  database: Database
  mailer: Mailer
  publicUrl: string
  now?: () => Date
  /** The admins' in-app notice of a request that waits (issue 29's service). */
  notifications?: Pick<NotificationService, 'notify' | 'deliver'>
}) {
  const pool: pg.Pool = deps.database.pool
  const now = deps.now ?? (() => new Date())

  const accessMail = (
    page: { slug: string; name: string },
    to: string,
    token: string,
    until: Date,
  ) =>
    compose({
      to,
      subject: `Your access to ${page.name}'s documents`,
      greeting: 'Hello,',
      paragraphs: [
        `${page.name} approved your request to read its documents under NDA.`,
        `The link below opens them; it works once, and your access lasts until ${until.toUTCString()}.`,
      ],
      action: {
        label: 'Open the documents',
        url: link(deps.publicUrl, `/trust/${page.slug}`, { access: token }),
      },
      footer: 'Each document you download is marked with your email address and the date.',
    })

  /** Issues the one-time link of an approved request; the mail goes once the caller commits. */
  async function grant(
    client: pg.PoolClient,
    page: { slug: string; name: string },
    row: { id: string; email: string },
    days: number,
  ) {
    const token = randomToken()
    const until = new Date(now().getTime() + days * DAY_MS)
    await client.query(
      `update trust_requests set link_hash = $2, link_used_at = null, reader_hash = null,
          expires_at = $3 where id = $1`,
      [row.id, hashToken(token), until],
    )
    return accessMail(page, row.email, token, until)
  }

  /**
   * A request that waits: each active admin is told in the app (a notification of the request's
   * own transaction, live once it commits) and by the email returned here, each as their
   * preference for 'trust_request' says. The notification service sends no email of this kind:
   * this one is it, so an admin gets one email, not two.
   */
  async function tellAdmins(
    client: pg.PoolClient,
    page: RequestPage,
    input: TrustRequestCreate,
    email: string,
  ) {
    const name = input.name.trim()
    const company = input.company.trim()
    const reason = input.reason?.trim() ?? ''
    const admins = await client.query<{
      id: string
      email: string
      first_name: string
      prefs: Preferences | null
    }>(
      `select id, email, first_name, notification_preferences as prefs from users
        where org_id = $1 and role = 'admin' and status = 'active'`,
      [page.orgId],
    )
    await deps.notifications?.notify(
      client,
      admins.rows.map((admin) => ({
        orgId: page.orgId,
        userId: Number(admin.id),
        kind: 'trust_request' as const,
        text: requestText(name, email, company),
        actorId: null,
        questionnaireId: null,
        questionId: null,
      })),
    )
    return admins.rows
      .filter((admin) => ['both', 'email'].includes(channelsOf(admin.prefs).trust_request))
      .map((admin) =>
        compose({
          to: admin.email,
          subject: `${name} of ${company} asks to read your documents`,
          greeting: admin.first_name ? `Hello ${admin.first_name},` : 'Hello,',
          paragraphs: [
            `${name} (${email}, ${company}) accepted your NDA (version ${page.ndaVersion}) and asks for access to the documents of your trust centre.`,
            ...(reason ? [`Their reason: ${reason}`] : []),
          ],
          action: { label: 'Review the request', url: `${deps.publicUrl}/settings/trust` },
        }),
      )
  }

  /** POST public/trust/{slug}/requests/. */
  async function create(
    page: RequestPage,
    input: TrustRequestCreate,
    meta: { address: string | null; userAgent: string | null },
  ) {
    if (input.nda_version !== page.ndaVersion)
      throw apiError(409, TRUST_REQUEST_TEXTS.ndaChanged, { code: 'conflict' })
    const email = input.email.trim().toLowerCase()
    const domain = email.split('@')[1] ?? ''
    const automatic = page.autoApproveDomains.includes(domain)
    const mails: MailMessage[] = []
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string; email: string }>(
        `insert into trust_requests (org_id, name, email, company, reason, nda_version, nda_text,
            address, user_agent, status, decided_at, approved_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, case when $10 = 'approved' then now() end,
                 case when $10 = 'approved' then now() end)
         returning id, email`,
        [
          page.orgId,
          input.name.trim(),
          email,
          input.company.trim(),
          input.reason?.trim() ?? '',
          page.ndaVersion,
          page.ndaText,
          meta.address,
          meta.userAgent?.slice(0, 500) ?? null,
          automatic ? 'approved' : 'pending',
        ],
      )
      const row = rows[0] as { id: string; email: string }
      await writeAudit(
        client,
        { orgId: page.orgId, actorId: null },
        {
          action: automatic ? 'trust.request_auto_approved' : 'trust.request_received',
          target: `trust_request:${row.id}`,
          name: `${input.name.trim()} <${email}>`,
        },
      )
      // issue 41: the organisation's endpoints hear of the request (approved at once or waiting)
      await emitWebhook(client, page.orgId, 'trust.access_requested', {
        request_id: Number(row.id),
        name: input.name.trim(),
        email,
        company: input.company.trim(),
        status: automatic ? 'approved' : 'pending',
      })
      if (automatic) mails.push(await grant(client, page, row, page.grantDays))
      else mails.push(...(await tellAdmins(client, page, input, email)))
    })
    for (const mail of mails) deps.mailer.send(mail)
    if (!automatic) await deps.notifications?.deliver()
    return { status: automatic ? ('approved' as const) : ('pending' as const) }
  }

  async function list(orgId: number): Promise<TrustRequest[]> {
    const { rows } = await pool.query<RequestRow>(
      `select r.*, (select count(*) from trust_downloads d where d.request_id = r.id) as downloads
         from trust_requests r where r.org_id = $1 order by r.created_at desc, r.id desc limit 500`,
      [orgId],
    )
    return rows.map(toRequest)
  }

  /** Approve, reject, revoke or extend: each from the status it needs, audited. */
  async function decide(
    orgId: number,
    userId: number,
    id: number,
    action: 'approve' | 'reject' | 'revoke' | 'extend',
    days?: number,
  ): Promise<TrustRequest> {
    const mails: MailMessage[] = []
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<
        RequestRow & { slug: string | null; org_name: string; grant_days: number }
      >(
        `select r.*, p.slug, o.name as org_name, coalesce(p.grant_days, 30) as grant_days
           from trust_requests r join organizations o on o.id = r.org_id
           left join trust_pages p on p.org_id = r.org_id
          where r.org_id = $1 and r.id = $2 for update of r`,
        [orgId, id],
      )
      const row = rows[0]
      if (!row) throw notFound('That request was not found.')
      const needs = action === 'approve' || action === 'reject' ? 'pending' : 'approved'
      if (row.status !== needs)
        throw apiError(
          409,
          needs === 'pending' ? TRUST_REQUEST_TEXTS.notPending : TRUST_REQUEST_TEXTS.notApproved,
          { code: 'conflict' },
        )
      if (action === 'approve' || action === 'extend') {
        const length = days ?? row.grant_days
        if (action === 'approve') {
          await client.query(
            `update trust_requests set status = 'approved', decided_by = $2, decided_at = now(),
                approved_at = now()
              where id = $1`,
            [row.id, userId],
          )
          mails.push(await grant(client, { slug: row.slug ?? '', name: row.org_name }, row, length))
        } else
          await client.query('update trust_requests set expires_at = $2 where id = $1', [
            row.id,
            new Date(now().getTime() + length * DAY_MS),
          ])
      } else {
        await client.query(
          `update trust_requests set status = $2, decided_by = $3, decided_at = now(),
              link_hash = null, reader_hash = null
            where id = $1`,
          [row.id, action === 'reject' ? 'rejected' : 'revoked', userId],
        )
      }
      await writeAudit(
        client,
        { orgId, actorId: userId },
        {
          action: `trust.request_${DONE[action]}`,
          target: `trust_request:${row.id}`,
          name: `${row.name} <${row.email}>`,
        },
      )
    })
    for (const mail of mails) deps.mailer.send(mail)
    const { rows } = await pool.query<RequestRow>(
      `select r.*, (select count(*) from trust_downloads d where d.request_id = r.id) as downloads
         from trust_requests r where r.id = $1`,
      [id],
    )
    return toRequest(rows[0] as RequestRow)
  }

  /**
   * POST public/trust/{slug}/session/: the emailed link's token, once, for a reader session that
   * lasts as long as the grant. A used, revoked, expired or unknown token, or one of another
   * page, is refused in the same words.
   */
  async function exchange(orgId: number, token: string) {
    const access = `${READER_PREFIX}${randomToken()}`
    const { rows } = await pool.query<{ email: string; expires_at: Date }>(
      `update trust_requests set link_used_at = now(), reader_hash = $3
        where org_id = $1 and link_hash = $2 and link_used_at is null and status = 'approved'
          and expires_at > now()
        returning email, expires_at`,
      [orgId, hashToken(token), hashToken(access)],
    )
    const row = rows[0]
    if (!row) throw apiError(400, TRUST_REQUEST_TEXTS.linkInvalid, { code: 'invalid_token' })
    return { access, expires_at: row.expires_at.toISOString(), email: row.email }
  }

  /** The reader a bearer token stands for on this organisation's page; null for anything else. */
  async function reader(orgId: number, authorization: string | undefined) {
    const token = authorization?.match(/^Bearer\s+(tr_[\w-]+)$/)?.[1]
    if (!token) return null
    const { rows } = await pool.query<{ id: string; email: string; expires_at: Date }>(
      `select id, email, expires_at from trust_requests
        where org_id = $1 and reader_hash = $2 and status = 'approved' and expires_at > now()`,
      [orgId, hashToken(token)],
    )
    const row = rows[0]
    return row ? { id: Number(row.id), email: row.email, expiresAt: row.expires_at } : null
  }

  async function logDownload(
    orgId: number,
    fileId: number,
    reader: { id: number; email: string } | null,
    address: string | null,
  ) {
    await pool.query(
      `insert into trust_downloads (org_id, file_id, request_id, email, address)
       values ($1, $2, $3, $4, $5)`,
      [orgId, fileId, reader?.id ?? null, reader?.email ?? null, address],
    )
  }

  return { create, list, decide, exchange, reader, logDownload }
}

export type TrustRequests = ReturnType<typeof createTrustRequests>
