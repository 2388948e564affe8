import { Link } from '@tanstack/react-router'
import { Bell, CheckCheck, Settings2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import type { Notification } from '../../../contract/collaboration.ts'
import {
  bellLabel,
  type notificationCentreMachine,
  notificationCentreView,
  NOTIFICATION_CENTRE_TEXTS as TEXTS,
  unreadBadge,
} from '../../../machines/notification-centre/index.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { countPill, focusRing } from '../../components/styles.ts'
import { Button, Drawer, IconButton, Portal, Spinner } from '../../components/ui'
import { formatExact, formatRelative } from '../../lib/format.ts'
import { useView } from '../use-view.ts'

/**
 * The bell of the top bar (issue 29): the unread count, and a panel that lists the notifications,
 * newest first. Opening one marks it read and goes to its question; "Mark all read" marks them all.
 */

type CentreActor = ActorRefFrom<typeof notificationCentreMachine>

const bellWrap = css({ position: 'relative', display: 'inline-flex' })
const badge = cx(
  countPill,
  css({
    position: 'absolute',
    top: '-1',
    right: '-1',
    bg: 'red.9',
    color: 'white',
    pointerEvents: 'none',
    boxShadow: '0 0 0 2px var(--colors-bg-default)',
  }),
)
const content = css({ w: { base: '100vw', sm: 'md' } })
const headerRow = flex({ align: 'center', justify: 'space-between', gap: '3', pr: '8' })
const list = css({ display: 'flex', flexDirection: 'column', gap: '1' })
const itemBox = cx(
  flex({
    gap: '3',
    align: 'flex-start',
    w: 'full',
    px: '3',
    py: '3',
    borderRadius: 'l2',
    textAlign: 'left',
    color: 'fg.default',
    textDecoration: 'none',
    bg: 'transparent',
    border: 'none',
    cursor: 'pointer',
    _hover: { bg: 'gray.a3' },
    '&[data-unread]': { bg: 'colorPalette.a2', _hover: { bg: 'colorPalette.a3' } },
  }),
  focusRing,
)
const dot = css({
  flexShrink: 0,
  w: '2',
  h: '2',
  mt: '1.5',
  borderRadius: 'full',
  bg: 'transparent',
  '[data-unread] > &': { bg: 'colorPalette.default' },
})
const itemText = css({ textStyle: 'sm', lineHeight: '1.45' })
const itemMeta = css({ textStyle: 'xs', color: 'fg.muted', mt: '0.5' })
const emptyText = css({ textStyle: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })
const note = css({ textStyle: 'xs', color: 'fg.muted', mb: '3' })
const footer = flex({ justify: 'space-between', align: 'center', gap: '3', w: 'full' })
const settingsLink = cx(
  flex({
    align: 'center',
    gap: '1.5',
    textStyle: 'sm',
    color: 'fg.muted',
    textDecoration: 'none',
    _hover: { color: 'fg.default' },
  }),
  focusRing,
)

export function NotificationBell(props: { actor: CentreActor }) {
  const view = useView(props.actor, notificationCentreView)
  const send = props.actor.send
  const close = () => send({ type: 'panel.close' })
  return (
    <>
      <span className={bellWrap}>
        <IconButton
          aria-label={bellLabel(view.unread)}
          title={TEXTS.title}
          variant="ghost"
          size="sm"
          onClick={() => send({ type: 'panel.open' })}
          data-testid="notification-bell"
        >
          <Bell size={18} aria-hidden />
        </IconButton>
        {view.unread > 0 && (
          <span className={badge} aria-hidden data-testid="notification-count">
            {unreadBadge(view.unread)}
          </span>
        )}
      </span>
      <Drawer.Root
        open={view.open}
        onOpenChange={(details) => send({ type: details.open ? 'panel.open' : 'panel.close' })}
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content className={content} aria-label={TEXTS.title}>
              <Drawer.Header>
                <div className={headerRow}>
                  <Drawer.Title>{TEXTS.title}</Drawer.Title>
                  <Button
                    size="xs"
                    variant="outline"
                    disabled={view.unread === 0}
                    onClick={() => send({ type: 'read.all' })}
                  >
                    <CheckCheck aria-hidden /> {TEXTS.markAll}
                  </Button>
                </div>
                <Drawer.CloseTrigger />
              </Drawer.Header>
              <Drawer.Body>
                {view.reconnecting && <p className={note}>{TEXTS.reconnecting}</p>}
                {view.paused && <p className={note}>{TEXTS.paused}</p>}
                {view.error && (
                  <RetryAlert error={view.error} onRetry={() => send({ type: 'refresh' })} />
                )}
                {view.loading && <Spinner size="sm" label="Reading your notifications" />}
                {!view.loading && !view.error && view.notifications.length === 0 && (
                  <p className={emptyText}>{TEXTS.empty}</p>
                )}
                <ul className={list} aria-label={TEXTS.title}>
                  {view.notifications.map((notification) => (
                    <li key={notification.id}>
                      <NotificationItem
                        notification={notification}
                        onOpen={() => {
                          send({ type: 'notification.open', id: notification.id })
                          close()
                        }}
                      />
                    </li>
                  ))}
                </ul>
              </Drawer.Body>
              <Drawer.Footer>
                <div className={footer}>
                  <Link
                    to="/settings"
                    hash="notifications"
                    className={settingsLink}
                    onClick={close}
                  >
                    <Settings2 size={14} aria-hidden /> {TEXTS.preferences}
                  </Link>
                  <Button variant="outline" size="sm" onClick={close}>
                    Close
                  </Button>
                </div>
              </Drawer.Footer>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </>
  )
}

/** Who and when, under the sentence; who only when the sentence does not name them already. */
const byline = (n: Notification) => {
  const when = formatRelative(n.created_at)
  return n.actor && !n.text.includes(n.actor.name) ? `${n.actor.name} · ${when}` : when
}

/** One notification: its sentence, who and when; a link to its question (or request) if any. */
function NotificationItem(props: { notification: Notification; onOpen: () => void }) {
  const n = props.notification
  const unread = n.read_at === null
  const body = (
    <>
      <span className={dot} aria-hidden />
      <span>
        <span className={itemText}>
          {unread && <span className={css({ srOnly: true })}>Unread: </span>}
          {n.text}
        </span>
        <span className={cx(itemMeta, css({ display: 'block' }))} title={formatExact(n.created_at)}>
          {byline(n)}
        </span>
      </span>
    </>
  )
  const common = {
    className: itemBox,
    'data-unread': unread ? '' : undefined,
    'data-testid': 'notification',
    onClick: props.onOpen,
  }
  // a trust centre request waits in Settings → Trust centre (issue 40)
  if (n.kind === 'trust_request') {
    return (
      <Link to="/settings/$section" params={{ section: 'trust' }} hash="trust-requests" {...common}>
        {body}
      </Link>
    )
  }
  if (n.questionnaire_id === null) {
    return (
      <button type="button" {...common}>
        {body}
      </button>
    )
  }
  return (
    <Link
      to="/questionnaire/$id"
      params={{ id: n.questionnaire_id }}
      search={n.question_id === null ? {} : { question: n.question_id }}
      {...common}
    >
      {body}
    </Link>
  )
}
