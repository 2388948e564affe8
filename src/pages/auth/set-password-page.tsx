import { Link, useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { CircleCheck, Unlink } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import {
  selectConfirm,
  selectFormError,
  selectIsSubmitting,
  selectLinkError,
  selectPassword,
  selectScreen,
  setPasswordMachine,
} from '../../../machines/set-password/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import { FormAlert, NavButton, Pending, StatusBadge, useSearchText } from './auth-parts.tsx'

/** The set-password machine with the real API call; tests pass their own `logic`. */
export const createSetPasswordLogic = (actors = accountActors()) =>
  setPasswordMachine.provide({ actors: { setPassword: actors.setPassword } })

export type SetPasswordLogic = ReturnType<typeof createSetPasswordLogic>

const defaultLogic = createSetPasswordLogic()

const backLink = css({ alignSelf: 'center', textStyle: 'sm' })

/** /set-password?uid&token: a first password from an invite link (spec sections 2, 5 and 8). */
export default function SetPasswordPage({ logic = defaultLogic }: { logic?: SetPasswordLogic }) {
  const uid = useSearchText('uid')
  const token = useSearchText('token')
  // a different link is a different flow
  return <SetPasswordFlow key={`${uid}\n${token}`} logic={logic} uid={uid} token={token} />
}

function SetPasswordFlow(props: { logic: SetPasswordLogic; uid?: string; token?: string }) {
  const actor = useActorRef(props.logic, { input: { uid: props.uid, token: props.token } })
  const navigate = useNavigate()
  useEmitted(
    () => [actor.on('navigate', (event) => void navigate({ to: event.to, replace: true }))],
    [actor, navigate],
  )

  const screen = useSelector(actor, selectScreen)
  const linkError = useSelector(actor, selectLinkError)
  const formError = useSelector(actor, selectFormError)
  const submitting = useSelector(actor, selectIsSubmitting)
  const password = useSelector(actor, selectPassword)
  const confirm = useSelector(actor, selectConfirm)

  switch (screen) {
    case 'checking':
      return (
        <AuthLayout title="Set Your Password">
          <Pending text="Validating token..." />
        </AuthLayout>
      )

    case 'invalid':
      return (
        <AuthLayout
          title="Invalid or Expired Link"
          lead="Ask your administrator to send you a new invitation."
        >
          <div className={authStyles.center}>
            <StatusBadge tone="error">
              <Unlink />
            </StatusBadge>
          </div>
          {linkError && <FormAlert>{linkError}</FormAlert>}
          <Link to="/login" className={cx(authStyles.link, backLink)}>
            Back to Login
          </Link>
        </AuthLayout>
      )

    case 'saved':
      return (
        <AuthLayout title="Password Set">
          <div className={authStyles.center}>
            <StatusBadge tone="success">
              <CircleCheck />
            </StatusBadge>
            <p className={authStyles.muted}>
              Your password has been set. Taking you to sign in with it...
            </p>
          </div>
          <NavButton to="/login">Go to Login</NavButton>
        </AuthLayout>
      )

    case 'form':
      return (
        <AuthLayout
          title="Set Your Password"
          lead="Welcome to Quire. Choose a password to activate your account."
          footer={
            <Link to="/login" className={authStyles.link}>
              Back to Login
            </Link>
          }
        >
          <NewPasswordForm
            password={password}
            confirm={confirm}
            busy={submitting}
            submitLabel="Set Password"
            onPassword={(value) => actor.send({ type: 'password.change', value })}
            onConfirm={(value) => actor.send({ type: 'confirm.change', value })}
            onSubmit={() => actor.send({ type: 'submit' })}
          >
            {formError && <FormAlert>{formError}</FormAlert>}
          </NewPasswordForm>
        </AuthLayout>
      )
  }
}
