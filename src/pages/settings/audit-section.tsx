import { useActorRef } from '@xstate/react'
import { Download } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import type { AuditEvent } from '../../../contract/organization.ts'
import { auditLogMachine, auditLogView } from '../../../machines/audit-log/index.ts'
import { organizationActors } from '../../api/organization-actors.ts'
import { useView } from '../../app/use-view.ts'
import { Pager } from '../../components/files/pager.tsx'
import { RetryAlert } from '../../components/row-actions.tsx'
import { card, muted, selectClass } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { formatRelative } from '../../lib/format.ts'

export const createAuditLogic = (actors = organizationActors()) =>
  auditLogMachine.provide({ actors })
export type AuditLogic = ReturnType<typeof createAuditLogic>
const defaultLogic = createAuditLogic()

const KINDS: [string, string][] = [
  ['', 'All actions'],
  ['user.', 'People'],
  ['organization.', 'Organisation'],
  ['license.', 'Plan'],
  ['authorization.', 'Refused calls'],
]

/** An action as a sentence fragment: 'user.role_changed' → 'Role changed'. */
const ACTIONS: Record<string, string> = {
  'user.invited': 'Invited',
  'user.reinvited': 'Invited again',
  'user.updated': 'Renamed',
  'user.role_changed': 'Role changed',
  'user.removed': 'Removed',
  'user.magic_link_sent': 'Sign-in link sent',
  'user.temporary_password': 'Temporary password set',
  'organization.updated': 'Organisation settings changed',
  'organization.logo_changed': 'Logo changed',
  'organization.logo_removed': 'Logo removed',
  'license.changed': 'Plan changed',
  'authorization.denied': 'Call refused for the role',
}
const labelOf = (event: AuditEvent) => ACTIONS[event.action] ?? event.action

const list = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })
const row = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', md: '12rem minmax(0, 1fr) 8rem' },
  gap: { base: '1', md: '4' },
  alignItems: 'baseline',
})
const detail = css({ textStyle: 'xs', color: 'fg.muted', wordBreak: 'break-word' })

/** What changed, in words: the fields of `before` and `after` that differ. */
function changes(event: AuditEvent): string {
  const before = (event.detail.before ?? {}) as Record<string, unknown>
  const after = (event.detail.after ?? {}) as Record<string, unknown>
  return Object.keys(after)
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map(
      (key) =>
        `${key.replaceAll('_', ' ')}: ${JSON.stringify(before[key] ?? null)} → ${JSON.stringify(after[key])}`,
    )
    .join('; ')
}

/** The audit log's actor, started by the page (which refreshes it after a change it made). */
export const useAuditLog = (logic: AuditLogic = defaultLogic) => useActorRef(logic)

/** Settings → Audit log (admins): who did what, when, with what before and after. */
export function AuditSection({ audit }: { audit: ActorRefFrom<AuditLogic> }) {
  const view = useView(audit, auditLogView)
  const pages = Math.max(1, Math.ceil(view.count / view.query.page_size))
  return (
    <section aria-labelledby="audit-heading">
      <div className={flex({ justify: 'space-between', align: 'center', gap: '3', wrap: 'wrap' })}>
        <h2 id="audit-heading" className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>
          Audit log
        </h2>
        <div className={flex({ gap: '2', wrap: 'wrap' })}>
          <select
            className={`${selectClass} ${css({ w: { base: 'full', sm: 'auto' }, minW: { sm: '12rem' } })}`}
            aria-label="Filter the audit log"
            value={view.query.action}
            onChange={(event) => audit.send({ type: 'action.change', action: event.target.value })}
          >
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <Button
            variant="outline"
            loading={view.downloading}
            onClick={() => audit.send({ type: 'download' })}
          >
            <Download /> Download CSV
          </Button>
        </div>
      </div>
      {view.failed && view.error ? (
        <div className={css({ mt: '3' })}>
          <RetryAlert error={view.error} onRetry={() => audit.send({ type: 'refresh' })} />
        </div>
      ) : view.loading ? (
        <p className={`${muted} ${css({ mt: '3' })}`}>Loading...</p>
      ) : (
        <ul className={list} aria-label="Audit log">
          {view.events.length === 0 && <li className={muted}>Nothing recorded yet.</li>}
          {view.events.map((event) => (
            <li key={event.id} className={card}>
              <div className={row}>
                <span className={css({ fontWeight: 'medium' })}>{labelOf(event)}</span>
                <span className={css({ minW: '0' })}>
                  {event.actor?.email ?? 'Someone removed'}
                  {event.target && <span className={muted}> · {event.target}</span>}
                  {changes(event) && <span className={detail}> {changes(event)}</span>}
                </span>
                <span className={muted} title={new Date(event.created_at).toLocaleString()}>
                  {formatRelative(event.created_at)}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager
        total={`${view.count} ${view.count === 1 ? 'entry' : 'entries'}`}
        page={view.query.page}
        pages={pages}
        position={`Page ${view.query.page} of ${pages}`}
        onPage={(page) => audit.send({ type: 'page.change', page })}
      />
    </section>
  )
}
