import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { MailCheck, MailX } from 'lucide-react'
import { css } from 'styled-system/css'
import {
  confirmEmailMachine,
  selectError,
  selectScreen,
} from '../../../machines/confirm-email/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { Button } from '../../components/ui/button.tsx'
import { BackToLogin, StatusScreen, useSearchText } from './auth-parts.tsx'
import { LinkFailed, LinkPending, useLinkEmitted } from './link-flow.tsx'

/** The confirm-email machine with the real API call; tests pass their own `logic`. */
export const createConfirmEmailLogic = (actors = accountActors()) =>
  confirmEmailMachine.provide({ actors: { confirmEmail: actors.confirmEmail } })

export type ConfirmEmailLogic = ReturnType<typeof createConfirmEmailLogic>

const defaultLogic = createConfirmEmailLogic()

/** /confirm_email?uuid: confirms the address automatically (spec sections 2, 5 and 8). */
export default function ConfirmEmailPage({ logic = defaultLogic }: { logic?: ConfirmEmailLogic }) {
  const uuid = useSearchText('uuid')
  // a different link is a different confirmation
  return <ConfirmEmailFlow key={uuid} logic={logic} uuid={uuid} />
}

function ConfirmEmailFlow(props: { logic: ConfirmEmailLogic; uuid?: string }) {
  const actor = useActorRef(props.logic, { input: { uuid: props.uuid } })
  useLinkEmitted(actor)

  const screen = useSelector(actor, selectScreen)
  const error = useSelector(actor, selectError)

  if (screen === 'awaitingApproval') {
    return (
      <StatusScreen title="Request sent" tone="success" icon={<MailCheck />} text={error}>
        <BackToLogin alone />
      </StatusScreen>
    )
  }

  if (screen === 'alreadyConfirmed') {
    return (
      <StatusScreen
        title="Email already confirmed"
        tone="success"
        icon={<MailCheck />}
        text={error}
      >
        <Button asChild className={css({ w: 'full' })}>
          <Link to="/login">Sign in</Link>
        </Button>
      </StatusScreen>
    )
  }

  if (screen === 'failed') {
    return <LinkFailed title="Email not confirmed" icon={<MailX />} error={error} />
  }

  return (
    <LinkPending
      title="Email confirmation"
      text={
        screen === 'confirmed' ? 'Email confirmed. Signing you in...' : 'Confirming your email...'
      }
    />
  )
}
