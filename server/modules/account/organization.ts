import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { auditLabel, auditSentence } from '../../../contract/audit.ts'
import { PUBLIC_EMAIL_DOMAINS } from '../../../contract/domains.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  type AuditEvent,
  auditQuerySchema,
  ORGANIZATION_TEXTS,
  type Organization,
  type OrganizationUpdate,
} from '../../../contract/organization.ts'
import type { AuthContext } from '../../auth/context.ts'
import { auditBy, writeAudit } from '../../db/audit.ts'
import type { Database } from '../../db/index.ts'
import { fetchPage } from '../../db/paging.ts'
import { organizationDomains, organizations, users } from '../../db/schema.ts'
import { apiError, notFound } from '../../http/errors.ts'

const fill = (text: string, domain: string) => text.replace('{domain}', domain)

const conflictOf = (error: unknown) => {
  for (let current = error; current && typeof current === 'object'; ) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * The organisation's settings (name, verified email domains, answer-style defaults) and its audit
 * log, for its admins. A domain is verified when an admin of the organisation has a confirmed
 * address there (following the confirmation mail proved control of it); public providers never are;
 * each domain belongs to one organisation. Every change is audited with its before and after.
 */
export function createOrganizationService(deps: { database: Database }) {
  const { db, pool } = deps.database

  async function get(orgId: number): Promise<Organization> {
    const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId))
    if (!org) throw notFound()
    const domains = await db
      .select({ domain: organizationDomains.domain, dns: organizationDomains.dnsVerifiedAt })
      .from(organizationDomains)
      .where(eq(organizationDomains.orgId, orgId))
      .orderBy(organizationDomains.domain)
    const { rows: logo } = await pool.query<{ updated_at: Date }>(
      'select updated_at from organization_logos where org_id = $1',
      [orgId],
    )
    return {
      id: org.id,
      name: org.name,
      logo_updated_at: logo[0]?.updated_at.toISOString() ?? null,
      verified_domains: domains.map((row) => row.domain),
      dns_verified_domains: domains.filter((row) => row.dns).map((row) => row.domain),
      answer_tone: org.answerTone as Organization['answer_tone'],
      answer_length: org.answerLength as Organization['answer_length'],
      review_cycle_days: org.reviewCycleDays,
      review_digest: org.reviewDigest,
      export_approved_only: org.exportApprovedOnly,
    }
  }

  async function update(auth: AuthContext, input: OrganizationUpdate, requestId: string) {
    const orgId = auth.org.id
    const before = await get(orgId)
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select id from organizations where id = ${orgId} for update`)
        const changes: Partial<typeof organizations.$inferInsert> = {}
        if (input.name !== undefined) changes.name = input.name
        if (input.answer_tone !== undefined) changes.answerTone = input.answer_tone
        if (input.answer_length !== undefined) changes.answerLength = input.answer_length
        if (input.review_cycle_days !== undefined) changes.reviewCycleDays = input.review_cycle_days
        if (input.review_digest !== undefined) changes.reviewDigest = input.review_digest
        if (input.export_approved_only !== undefined)
          changes.exportApprovedOnly = input.export_approved_only
        if (Object.keys(changes).length)
          await tx
            .update(organizations)
            .set({ ...changes, updatedAt: new Date() })
            .where(eq(organizations.id, orgId))
        if (input.verified_domains !== undefined) {
          const wanted = [...new Set(input.verified_domains)]
          const added = wanted.filter((domain) => !before.verified_domains.includes(domain))
          const dropped = before.verified_domains.filter((domain) => !wanted.includes(domain))
          for (const domain of added) {
            if (PUBLIC_EMAIL_DOMAINS.has(domain))
              throw badDomain(fill(ORGANIZATION_TEXTS.publicDomain, domain))
            const [admin] = await tx
              .select({ id: users.id })
              .from(users)
              .where(
                and(
                  eq(users.orgId, orgId),
                  eq(users.role, 'admin'),
                  eq(users.status, 'active'),
                  isNotNull(users.emailConfirmedAt),
                  sql`lower(split_part(${users.email}, '@', 2)) = ${domain}`,
                ),
              )
              .limit(1)
            if (!admin) throw badDomain(fill(ORGANIZATION_TEXTS.domainNotYours, domain))
            await tx.insert(organizationDomains).values({ domain, orgId, addedBy: auth.user.id })
          }
          if (dropped.length) {
            await tx
              .delete(organizationDomains)
              .where(
                and(
                  eq(organizationDomains.orgId, orgId),
                  inArray(organizationDomains.domain, dropped),
                ),
              )
            // single sign-on domains are always verified ones: a dropped domain leaves them
            for (const domain of dropped)
              await tx.execute(
                sql`update sso_settings set updated_at = now(), domains = array_remove(domains, ${domain})
                     where org_id = ${orgId}`,
              )
          }
        }
      })
    } catch (error) {
      if (!conflictOf(error)) throw error
      const taken = (input.verified_domains ?? []).find(
        (domain) => !before.verified_domains.includes(domain),
      )
      throw apiError(409, fill(ORGANIZATION_TEXTS.domainTaken, taken ?? ''), {
        msg: fill(ORGANIZATION_TEXTS.domainTaken, taken ?? ''),
        code: ERROR_CODES.conflict,
      })
    }
    const after = await get(orgId)
    const changed = (Object.keys(after) as (keyof Organization)[]).filter(
      (key) => JSON.stringify(after[key]) !== JSON.stringify(before[key]),
    )
    if (changed.length)
      await writeAudit(db, auditBy(auth, requestId), {
        action: 'organization.updated',
        target: `organization:${orgId}`,
        name: changed.map((key) => key.replaceAll('_', ' ')).join(', '),
        detail: { before, after },
      })
    return after
  }

  /** The audit log, newest first: by an action prefix ('user.') and an actor. */
  async function auditLog(orgId: number, input: unknown) {
    const query = auditQuerySchema.parse(input)
    const values: unknown[] = [orgId]
    const where = ['e.org_id = $1']
    if (query.action) {
      values.push(`${query.action.replace(/[\\%_]/g, '\\$&')}%`)
      where.push(`e.action like $${values.length}`)
    }
    if (query.actor) {
      values.push(query.actor)
      where.push(`e.actor_id = $${values.length}`)
    }
    const { count, rows } = await fetchPage<{
      id: string
      action: string
      actor_id: string | null
      actor_email: string | null
      actor_name: string | null
      target: string | null
      object: string | null
      detail: Record<string, unknown>
      created_at: Date
    }>(
      pool,
      {
        // entries written before names were kept name their person by the target's address
        select: `select e.id, e.action, e.actor_id, u.email as actor_email,
                        trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as actor_name,
                        e.target, coalesce(e.detail->>'name', t.email) as object, e.detail, e.created_at
                   from audit_events e left join users u on u.id = e.actor_id
                   left join users t on t.org_id = e.org_id and t.id =
                        case when e.target ~ '^user:[0-9]{1,18}$' then substring(e.target from 6)::bigint end`,
        counted: 'audit_events e',
        where: where.join(' and '),
        order: 'e.created_at desc, e.id',
      },
      values,
      query,
    )
    const results: AuditEvent[] = rows.map((row) => {
      const actor =
        row.actor_id && row.actor_email
          ? { id: Number(row.actor_id), email: row.actor_email, name: row.actor_name ?? '' }
          : null
      const words = { action: row.action, actor, object: row.object, target: row.target }
      return {
        id: row.id,
        action: row.action,
        label: auditLabel(row.action),
        summary: auditSentence({ ...words, detail: row.detail }),
        actor,
        object: row.object,
        target: row.target,
        detail: row.detail,
        created_at: row.created_at.toISOString(),
      }
    })
    return { count, results }
  }

  /** The audit log as CSV (all pages of the filter, at most 50,000 rows). */
  async function auditCsv(orgId: number, input: Record<string, string>) {
    const rows: AuditEvent[] = []
    for (let page = 1; rows.length < 50_000; page++) {
      const { results } = await auditLog(orgId, { ...input, page, page_size: 200 })
      rows.push(...results)
      if (results.length < 200) break
    }
    const cell = (value: string) => {
      // a spreadsheet reads =, +, - and @ as a formula: quoted as text
      const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
      return `"${safe.replaceAll('"', '""')}"`
    }
    const lines = [
      ['time', 'entry', 'actor', 'action', 'object', 'target', 'detail'].join(','),
      ...rows.map((row) =>
        [
          row.created_at,
          row.summary,
          row.actor?.email ?? '',
          row.action,
          row.object ?? '',
          row.target ?? '',
          JSON.stringify(row.detail),
        ]
          .map(cell)
          .join(','),
      ),
    ]
    return `${lines.join('\r\n')}\r\n`
  }

  return { get, update, auditLog, auditCsv }
}

const badDomain = (text: string) => apiError(400, text, { msg: text, code: ERROR_CODES.validation })

export type OrganizationService = ReturnType<typeof createOrganizationService>
