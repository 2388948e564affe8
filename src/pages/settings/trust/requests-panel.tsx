import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { TrustRequest } from '../../../../contract/trust.ts'
import {
  type TrustDecision,
  type TrustRequestFilter,
  type trustRequestsMachine,
  trustRequestsView,
} from '../../../../machines/trust-requests/index.ts'
import { useView } from '../../../app/use-view.ts'
import { callout } from '../../../components/form-styles.ts'
import { RetryAlert } from '../../../components/row-actions.tsx'
import {
  card,
  cardList,
  cardRow,
  filterPill,
  filterPills,
  pill,
} from '../../../components/styles.ts'
import { Button } from '../../../components/ui/button.tsx'
import { formatDay } from '../../../lib/format.ts'

const FILTERS: { key: TrustRequestFilter; label: string }[] = [
  { key: 'pending', label: 'Waiting' },
  { key: 'approved', label: 'Approved' },
  { key: 'all', label: 'All' },
]
const STATUS: Record<TrustRequest['status'], { label: string; tone: string }> = {
  pending: { label: 'Waiting', tone: css({ bg: 'amber.a3', color: 'amber.text' }) },
  approved: { label: 'Approved', tone: css({ bg: 'green.a3', color: 'green.text' }) },
  rejected: { label: 'Rejected', tone: css({ bg: 'gray.a3', color: 'fg.muted' }) },
  revoked: { label: 'Revoked', tone: css({ bg: 'red.a3', color: 'red.text' }) },
}
const ACTIONS: Record<TrustRequest['status'], { action: TrustDecision; label: string }[]> = {
  pending: [
    { action: 'approve', label: 'Approve' },
    { action: 'reject', label: 'Reject' },
  ],
  approved: [
    { action: 'extend', label: 'Extend' },
    { action: 'revoke', label: 'Revoke' },
  ],
  rejected: [],
  revoked: [],
}

const requestCard = cx(card, cardRow, css({ alignItems: 'start' }))
const who = css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })
const meta = css({ color: 'fg.muted', textStyle: 'xs', mt: '0.5', overflowWrap: 'anywhere' })
const reason = css({ mt: '1.5', whiteSpace: 'pre-line' })
const buttons = css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })
const empty = css({ color: 'fg.muted', textStyle: 'sm' })

/**
 * Settings → Trust centre, requests (admins): renders the request queue machine and sends its
 * events. Each request shows who asked, why, and the NDA acceptance as logged.
 */
export function RequestsPanel(props: {
  actor: ActorRefFrom<typeof trustRequestsMachine>
  grantDays: number
}) {
  const { actor } = props
  const view = useView(actor, trustRequestsView)
  if (view.failed)
    return <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <div className={filterPills} role="toolbar" aria-label="Show requests">
        {FILTERS.map((filter) => (
          <button
            key={filter.key}
            type="button"
            className={filterPill}
            aria-pressed={view.filter === filter.key}
            onClick={() => actor.send({ type: 'filter', filter: filter.key })}
          >
            {filter.label}
            {filter.key === 'pending' && view.pendingCount > 0 ? ` (${view.pendingCount})` : ''}
          </button>
        ))}
      </div>
      {view.error && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      {view.loading ? (
        <p className={empty}>Loading...</p>
      ) : view.shown.length === 0 ? (
        <p className={empty}>
          {view.filter === 'pending' ? 'No request waits for a decision.' : 'No requests yet.'}
        </p>
      ) : (
        <ul className={cardList} aria-label="Requests">
          {view.shown.map((request) => (
            <li
              key={request.id}
              className={requestCard}
              aria-label={`${request.name}, ${request.company}`}
            >
              <div>
                <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                  <span className={who}>
                    {request.name} · {request.company}
                  </span>
                  <span className={`${pill} ${STATUS[request.status].tone}`}>
                    {STATUS[request.status].label}
                  </span>
                </div>
                <div className={meta}>
                  <a href={`mailto:${request.email}`}>{request.email}</a> · asked{' '}
                  {formatDay(request.created_at)}
                  {request.expires_at && request.status === 'approved'
                    ? ` · access until ${formatDay(request.expires_at)}`
                    : ''}
                  {request.downloads > 0 ? ` · ${request.downloads} downloads` : ''}
                </div>
                {request.reason && <p className={reason}>{request.reason}</p>}
                <div className={meta}>
                  Accepted NDA version {request.nda_version} on {formatDay(request.nda_accepted_at)}
                  {request.address ? ` from ${request.address}` : ''}
                  {request.user_agent ? ` (${request.user_agent.slice(0, 80)})` : ''}
                </div>
              </div>
              <div className={buttons}>
                {ACTIONS[request.status].map(({ action, label }) => (
                  <Button
                    key={action}
                    size="sm"
                    variant={action === 'approve' ? 'solid' : 'outline'}
                    loading={view.decision?.id === request.id && view.decision.action === action}
                    disabled={view.busy}
                    aria-label={`${label} ${request.name}`}
                    title={
                      action === 'approve' || action === 'extend'
                        ? `For ${props.grantDays} days from today`
                        : undefined
                    }
                    onClick={() =>
                      actor.send({ type: 'decide', decision: { id: request.id, action } })
                    }
                  >
                    {label}
                  </Button>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
