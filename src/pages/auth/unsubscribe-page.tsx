import { useSearch } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { BellOff, MailCheck, MailX } from 'lucide-react'
import { css } from 'styled-system/css'
import { unsubscribeView } from '../../../machines/unsubscribe/index.ts'
import { createInboxLogic } from '../../api/inbox-actors.ts'
import { useView } from '../../app/use-view.ts'
import { Button } from '../../components/ui'
import { AuthLayout } from './auth-layout.tsx'
import { NavButton, Pending, StatusScreen } from './auth-parts.tsx'

export const createUnsubscribeLogic = (actors?: Parameters<typeof createInboxLogic>[0]) =>
  createInboxLogic(actors).unsubscribe
export type UnsubscribeLogic = ReturnType<typeof createUnsubscribeLogic>
const defaultLogic = createUnsubscribeLogic()

const note = css({ textStyle: 'sm', color: 'fg.muted', textAlign: 'center' })
const SETTINGS_NOTE =
  'You still see these notifications in Quire. To change how you are told of each kind, sign in and open Settings.'

/** /unsubscribe?token: a notification email's one-click unsubscribe, without signing in. */
export default function UnsubscribePage({ logic = defaultLogic }: { logic?: UnsubscribeLogic }) {
  const search: Record<string, unknown> = useSearch({ strict: false })
  const token = typeof search.token === 'string' ? search.token : undefined
  // a different link is a different unsubscribe
  return <Unsubscribe key={token ?? ''} logic={logic} token={token} />
}

function Unsubscribe(props: { logic: UnsubscribeLogic; token?: string }) {
  const actor = useActorRef(props.logic, { input: { token: props.token } })
  const view = useView(actor, unsubscribeView)
  if (view.screen === 'done') {
    return (
      <StatusScreen
        title="You are unsubscribed"
        tone="success"
        icon={<MailCheck />}
        text={view.message}
      >
        <p className={note}>{SETTINGS_NOTE}</p>
        <NavButton to="/" variant="outline">
          Open Quire
        </NavButton>
      </StatusScreen>
    )
  }
  if (view.screen === 'invalid') {
    return (
      <StatusScreen
        title="This link does not work"
        tone="error"
        icon={<MailX />}
        text={`${view.message ?? ''} It may have been copied only in part. Sign in and open Settings to choose which emails you receive.`}
      >
        <NavButton to="/login" variant="outline">
          Sign in
        </NavButton>
      </StatusScreen>
    )
  }
  if (view.screen === 'failed') {
    return (
      <StatusScreen
        title="Not unsubscribed yet"
        tone="warning"
        icon={<BellOff />}
        error={view.message}
      >
        <Button onClick={() => actor.send({ type: 'retry' })}>Try again</Button>
      </StatusScreen>
    )
  }
  return (
    <AuthLayout title="Unsubscribe">
      <Pending text="Unsubscribing you…" />
    </AuthLayout>
  )
}
