import { css } from 'styled-system/css'
import { auditLabel, auditSentence } from '../../../contract/audit.ts'
import type { AuditEvent } from '../../../contract/organization.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { muted } from '../../components/styles.ts'

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

/**
 * One entry of the audit log as a sentence ('Ana Admin uploaded policy.pdf'), worded by
 * contract/audit.ts as the download words it, with the actor's address and what changed.
 */
export function AuditEntry({ event }: { event: AuditEvent }) {
  const changed = changes(event)
  return (
    <div className={row}>
      <span className={css({ fontWeight: 'medium' })}>{auditLabel(event.action)}</span>
      <span className={css({ minW: '0', wordBreak: 'break-word' })}>
        {auditSentence(event)}
        {event.actor?.name && <span className={muted}> ({event.actor.email})</span>}
        {changed && <span className={detail}> {changed}</span>}
      </span>
      <span className={muted} title={new Date(event.created_at).toLocaleString()}>
        <RelativeTime iso={event.created_at} />
      </span>
    </div>
  )
}
