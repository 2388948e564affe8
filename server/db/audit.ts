import { auditName } from '../../contract/audit.ts'
import type { AuthContext } from '../auth/context.ts'
import type { Database, DbOrTx } from './index.ts'
import { auditEvents } from './schema.ts'

type Queryable = Pick<Database['pool'], 'query'>

/** Who acted, for whom, in which request. */
export interface AuditBy {
  orgId: number
  /** null: Quire itself (a webhook, single sign-on, a job). */
  actorId: number | null
  requestId?: string | null
}

/** The acting person of a request. */
export const auditBy = (auth: AuthContext, requestId?: string | null): AuditBy => ({
  orgId: auth.org.id,
  actorId: auth.user.id,
  requestId: requestId ?? null,
})

export interface AuditEntry {
  /** contract/audit.ts names each action in words. */
  action: string
  /** The object's kind and id ('file:12'). */
  target?: string | null
  /**
   * The object by the name it has now (a file's name, a person's email, a question's text): kept
   * in the entry, so that the log still reads by name after the object is renamed or deleted.
   */
  name?: string | null
  /** What changed (before and after), never a secret. */
  detail?: Record<string, unknown>
  createdAt?: Date
}

/**
 * Writes one audit entry (TI7) with the caller's client or transaction, so that the entry and the
 * change it records commit together or not at all.
 */
export async function writeAudit(client: Queryable | DbOrTx, by: AuditBy, entry: AuditEntry) {
  const detail = {
    ...(entry.name ? { name: auditName(entry.name) } : {}),
    ...entry.detail,
  }
  const row = {
    orgId: by.orgId,
    actorId: by.actorId,
    action: entry.action,
    target: entry.target ?? null,
    requestId: by.requestId ?? null,
    detail,
  }
  if ('execute' in client) {
    await client
      .insert(auditEvents)
      .values(entry.createdAt ? { ...row, createdAt: entry.createdAt } : row)
    return
  }
  await client.query(
    `insert into audit_events (org_id, actor_id, action, target, request_id, detail, created_at)
     values ($1, $2, $3, $4, $5, $6, coalesce($7, now()))`,
    [
      row.orgId,
      row.actorId,
      row.action,
      row.target,
      row.requestId,
      detail,
      entry.createdAt ?? null,
    ],
  )
}
