import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import { grid, wrap } from 'styled-system/patterns'
import {
  DELIVERY_CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  type DeliveryChannel,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
} from '../../../contract/collaboration.ts'
import {
  notificationPreferencesView,
  NOTIFICATION_PREFERENCES_TEXTS as TEXTS,
} from '../../../machines/notification-preferences/index.ts'
import { createInboxLogic } from '../../api/inbox-actors.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { alert } from '../../components/styles.ts'
import { Spinner } from '../../components/ui'
import { SimpleSelect } from '../../components/ui/select.tsx'

export const createNotificationsLogic = (actors?: Parameters<typeof createInboxLogic>[0]) =>
  createInboxLogic(actors).preferences
export type NotificationsLogic = ReturnType<typeof createNotificationsLogic>
const defaultLogic = createNotificationsLogic()

const CHANNEL_OPTIONS = DELIVERY_CHANNELS.map((channel) => ({
  value: channel,
  label: DELIVERY_CHANNEL_LABELS[channel],
}))

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const head = wrap({ justify: 'space-between', align: 'baseline', gap: '3' })
const lead = css({ textStyle: 'sm', color: 'fg.muted', mt: '1', maxW: '2xl' })
const status = css({ textStyle: 'xs', color: 'fg.muted', minH: '4' })
const rows = css({
  mt: '4',
  maxW: '3xl',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  '& > li + li': { borderTopWidth: '1px', borderColor: 'border.subtle' },
})
const row = grid({
  gridTemplateColumns: { base: '1fr', sm: 'minmax(0, 1fr) 14rem' },
  alignItems: 'center',
  gap: { base: '2', sm: '4' },
  px: '4',
  py: '3',
})
const kindLabel = css({ textStyle: 'sm', fontWeight: 'medium' })

/** Settings → Notifications: how each kind of notification reaches me (issue 29). */
export function NotificationsSection({
  logic = defaultLogic,
  admin = false,
}: {
  logic?: NotificationsLogic
  /** Admins also hear of the trust centre's requests. */
  admin?: boolean
}) {
  const actor = useActorRef(logic)
  const view = useView(actor, notificationPreferencesView)
  return (
    <section id="notifications" aria-labelledby="notifications-heading">
      <div className={head}>
        <div>
          <h2 id="notifications-heading" className={heading}>
            {TEXTS.title}
          </h2>
          <p className={lead}>{TEXTS.description}</p>
        </div>
        <p className={status} aria-live="polite" data-testid="notifications-status">
          {view.saving ? TEXTS.saving : view.saved ? TEXTS.saved : ''}
        </p>
      </div>
      {view.failed && view.error && (
        <RetryAlert error={view.error} onRetry={() => actor.send({ type: 'retry' })} />
      )}
      {!view.failed && view.error && (
        <p className={alert} role="alert">
          {view.error}
        </p>
      )}
      {!view.preferences && !view.failed && <Spinner size="sm" label="Reading your settings" />}
      {view.preferences && (
        <ul className={rows}>
          {NOTIFICATION_KINDS.filter((kind) => admin || kind !== 'trust_request').map((kind) => (
            <li key={kind} className={row}>
              <span className={kindLabel} id={`kind-${kind}`}>
                {NOTIFICATION_KIND_LABELS[kind]}
              </span>
              <SimpleSelect
                label={NOTIFICATION_KIND_LABELS[kind]}
                hideLabel
                options={CHANNEL_OPTIONS}
                value={view.preferences?.[kind] ?? 'both'}
                onChange={(value) =>
                  actor.send({ type: 'choose', kind, channel: value as DeliveryChannel })
                }
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
