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
import { AuthLayout } from './auth-layout.tsx'
import {
  BackToLogin,
  Pending,
  RedirectNote,
  StatusScreen,
  useNavigateEmitted,
  useSearchText,
  useSignedInEmitted,
} from './auth-parts.tsx'

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
  useSignedInEmitted(actor)
  useNavigateEmitted(actor)

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
    return (
      <StatusScreen title="Email not confirmed" tone="error" icon={<MailX />} error={error}>
        <RedirectNote />
        <BackToLogin alone />
      </StatusScreen>
    )
  }

  return (
    <AuthLayout title="Email confirmation">
      <Pending
        text={
          screen === 'confirmed' ? 'Email confirmed. Signing you in...' : 'Confirming your email...'
        }
      />
    </AuthLayout>
  )
}
