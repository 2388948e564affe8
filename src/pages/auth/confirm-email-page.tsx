import { Link, useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { MailX } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import {
  confirmEmailMachine,
  selectError,
  selectScreen,
} from '../../../machines/confirm-email/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import { FormAlert, Pending, RedirectNote, StatusBadge, useSearchText } from './auth-parts.tsx'

/** The confirm-email machine with the real API call; tests pass their own `logic`. */
export const createConfirmEmailLogic = (actors = accountActors()) =>
  confirmEmailMachine.provide({ actors: { confirmEmail: actors.confirmEmail } })

export type ConfirmEmailLogic = ReturnType<typeof createConfirmEmailLogic>

const defaultLogic = createConfirmEmailLogic()

const backLink = css({ alignSelf: 'center', textStyle: 'sm' })

/** /confirm_email?uuid: confirms the address automatically (spec sections 2, 5 and 8). */
export default function ConfirmEmailPage({ logic = defaultLogic }: { logic?: ConfirmEmailLogic }) {
  const uuid = useSearchText('uuid')
  // a different link is a different confirmation
  return <ConfirmEmailFlow key={uuid} logic={logic} uuid={uuid} />
}

function ConfirmEmailFlow(props: { logic: ConfirmEmailLogic; uuid?: string }) {
  const actor = useActorRef(props.logic, { input: { uuid: props.uuid } })
  const session = SessionContext.useActorRef()
  const navigate = useNavigate()
  useEmitted(
    () => [
      actor.on('signedIn', (event) => {
        session.send({ type: 'session.login', claims: event.claims })
        void navigate({ to: '/', replace: true })
      }),
      actor.on('navigate', (event) => void navigate({ to: event.to, replace: true })),
    ],
    [actor, session, navigate],
  )

  const screen = useSelector(actor, selectScreen)
  const error = useSelector(actor, selectError)

  if (screen === 'failed') {
    return (
      <AuthLayout title="Email Not Confirmed">
        <div className={authStyles.center}>
          <StatusBadge tone="error">
            <MailX />
          </StatusBadge>
        </div>
        {error && <FormAlert>{error}</FormAlert>}
        <RedirectNote />
        <Link to="/login" className={cx(authStyles.link, backLink)}>
          Back to Login
        </Link>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title="Email Confirmation">
      <Pending
        text={
          screen === 'confirmed' ? 'Email confirmed. Signing you in...' : 'Confirming your email...'
        }
      />
    </AuthLayout>
  )
}
