import { Link, useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { CircleCheck, MailCheck, TimerOff, Unlink } from 'lucide-react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  resetPasswordMachine,
  selectConfirm,
  selectEmail,
  selectFormError,
  selectIsBusy,
  selectIsResent,
  selectLinkError,
  selectPassword,
  selectResendError,
  selectScreen,
} from '../../../machines/reset-password/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import {
  FormAlert,
  NavButton,
  Pending,
  RedirectNote,
  StatusBadge,
  useSearchText,
} from './auth-parts.tsx'

/** The reset-password machine with the real API calls; tests pass their own `logic`. */
export const createResetPasswordLogic = (actors = accountActors()) =>
  resetPasswordMachine.provide({
    actors: {
      validateResetToken: actors.validateResetToken,
      confirmPasswordReset: actors.confirmPasswordReset,
      requestPasswordReset: actors.requestPasswordReset,
    },
  })

export type ResetPasswordLogic = ReturnType<typeof createResetPasswordLogic>

const defaultLogic = createResetPasswordLogic()

const fullWidth = css({ w: 'full' })

/** /reset-password?uid&token: reset with an emailed link (spec sections 2, 4, 5 and 8). */
export default function ResetPasswordPage({
  logic = defaultLogic,
}: {
  logic?: ResetPasswordLogic
}) {
  const uid = useSearchText('uid')
  const token = useSearchText('token')
  // a different link is a different flow
  return <ResetPasswordFlow key={`${uid}\n${token}`} logic={logic} uid={uid} token={token} />
}

function ResetPasswordFlow(props: { logic: ResetPasswordLogic; uid?: string; token?: string }) {
  const actor = useActorRef(props.logic, { input: { uid: props.uid, token: props.token } })
  const navigate = useNavigate()
  useEmitted(
    () => [actor.on('navigate', (event) => void navigate({ to: event.to, replace: true }))],
    [actor, navigate],
  )

  const screen = useSelector(actor, selectScreen)
  const email = useSelector(actor, selectEmail)
  const linkError = useSelector(actor, selectLinkError)
  const formError = useSelector(actor, selectFormError)
  const resendError = useSelector(actor, selectResendError)
  const resent = useSelector(actor, selectIsResent)
  const busy = useSelector(actor, selectIsBusy)
  const password = useSelector(actor, selectPassword)
  const confirm = useSelector(actor, selectConfirm)

  switch (screen) {
    case 'checking':
      return (
        <AuthLayout title="Reset Password">
          <Pending text="Validating reset link..." />
        </AuthLayout>
      )

    case 'invalid':
      return (
        <AuthLayout
          title="Invalid Reset Link"
          lead="This link cannot be used to reset your password. It may have been used already or copied incompletely."
        >
          <div className={authStyles.center}>
            <StatusBadge tone="error">
              <Unlink />
            </StatusBadge>
          </div>
          {linkError && <FormAlert>{linkError}</FormAlert>}
          <div className={authStyles.actions}>
            <NavButton to="/forgot-password">Request New Reset Link</NavButton>
            <NavButton to="/login" variant="outline">
              Back to Login
            </NavButton>
          </div>
        </AuthLayout>
      )

    case 'expired':
      return (
        <AuthLayout
          title="Reset Link Expired"
          lead={
            email ? (
              <>
                Reset links are valid for 1 hour. We can send a new one to <strong>{email}</strong>.
              </>
            ) : (
              'Reset links are valid for 1 hour. Ask for a new one to reset your password.'
            )
          }
        >
          <div className={authStyles.center}>
            <StatusBadge tone={resent ? 'success' : 'warning'}>
              {resent ? <MailCheck /> : <TimerOff />}
            </StatusBadge>
          </div>
          {resent && (
            <FormAlert tone="success">
              A new reset link is on its way. Check your inbox; the link is valid for 1 hour.
            </FormAlert>
          )}
          {resendError && <FormAlert>{resendError}</FormAlert>}
          <div className={authStyles.actions}>
            {!resent && (
              <Button
                type="button"
                className={fullWidth}
                loading={busy}
                onClick={() => actor.send({ type: 'resend' })}
              >
                Send New Reset Link
              </Button>
            )}
            <NavButton to="/forgot-password" variant="outline">
              Use Different Email
            </NavButton>
            <NavButton to="/login" variant="ghost">
              Back to Login
            </NavButton>
          </div>
        </AuthLayout>
      )

    case 'saved':
      return (
        <AuthLayout title="Password Reset">
          <div className={authStyles.center}>
            <StatusBadge tone="success">
              <CircleCheck />
            </StatusBadge>
            <p className={authStyles.muted}>
              Your password has been reset. Taking you to sign in with your new password...
            </p>
          </div>
          <NavButton to="/login">Go to Login</NavButton>
        </AuthLayout>
      )

    case 'rejected':
      return (
        <AuthLayout title="Reset Password">
          <FormAlert>{AUTH_TEXTS.invalidOrExpiredResetLink}</FormAlert>
          <RedirectNote />
          <NavButton to="/login" variant="outline">
            Back to Login
          </NavButton>
        </AuthLayout>
      )

    case 'form':
      return (
        <AuthLayout
          title="Reset Password"
          lead={
            email ? (
              <>
                Choose a new password for <strong>{email}</strong>.
              </>
            ) : (
              'Choose a new password for your account.'
            )
          }
          footer={
            <Link to="/login" className={authStyles.link}>
              Back to Login
            </Link>
          }
        >
          <NewPasswordForm
            password={password}
            confirm={confirm}
            busy={busy}
            submitLabel="Reset Password"
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
