import { useActorRef } from '@xstate/react'
import { Download } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import { AUDIT_GROUPS } from '../../../contract/audit.ts'
import { auditLogMachine, auditLogView } from '../../../machines/audit-log/index.ts'
import { organizationActors } from '../../api/organization-actors.ts'
import { useView } from '../../app/use-view.ts'
import { Pager } from '../../components/files/pager.tsx'
import { RetryAlert } from '../../components/row-actions.tsx'
import { card, muted } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { AuditEntry } from './audit-entry.tsx'

export const createAuditLogic = (actors = organizationActors()) =>
  auditLogMachine.provide({ actors })
export type AuditLogic = ReturnType<typeof createAuditLogic>
const defaultLogic = createAuditLogic()

const AUDIT_OPTIONS = AUDIT_GROUPS.map(([value, label]) => ({ value, label }))
const list = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })

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
          <SimpleSelect
            label="Filter the audit log"
            hideLabel
            size="md"
            className={css({ w: { base: 'full', sm: 'auto' }, minW: { sm: '12rem' } })}
            options={AUDIT_OPTIONS}
            value={view.query.action}
            onChange={(value) => audit.send({ type: 'action.change', action: value })}
          />
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
              <AuditEntry event={event} />
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
