import { useActorRef } from '@xstate/react'
import { CircleCheck, MailCheck, TimerOff, Unlink } from 'lucide-react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import type { LinkInput } from '../../../machines/account.ts'
import { resetPasswordMachine, resetPasswordView } from '../../../machines/reset-password/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useView } from '../../app/use-view.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import {
  BackToLogin,
  FormAlert,
  NavButton,
  Pending,
  RedirectNote,
  StatusScreen,
  useLinkInput,
  useNavigateEmitted,
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
  const link = useLinkInput()
  return <ResetPasswordFlow key={link.key} logic={logic} input={link.input} />
}

function ResetPasswordFlow(props: { logic: ResetPasswordLogic; input: LinkInput }) {
  const actor = useActorRef(props.logic, { input: props.input })
  useNavigateEmitted(actor)

  const view = useView(actor, resetPasswordView)

  switch (view.screen) {
    case 'checking':
      return (
        <AuthLayout title="Reset Password">
          <Pending text="Validating reset link..." />
        </AuthLayout>
      )

    case 'invalid':
      return (
        <StatusScreen
          title="Invalid Reset Link"
          lead="This link cannot be used to reset your password. It may have been used already or copied incompletely."
          tone="error"
          icon={<Unlink />}
          error={view.linkError}
        >
          <div className={authStyles.actions}>
            <NavButton to="/forgot-password">Request New Reset Link</NavButton>
            <NavButton to="/login" variant="outline">
              Back to Login
            </NavButton>
          </div>
        </StatusScreen>
      )

    case 'expired':
      return (
        <StatusScreen
          title="Reset Link Expired"
          lead={
            view.email ? (
              <>
                Reset links are valid for 1 hour. We can send a new one to{' '}
                <strong>{view.email}</strong>.
              </>
            ) : (
              'Reset links are valid for 1 hour. Ask for a new one to reset your password.'
            )
          }
          tone={view.resent ? 'success' : 'warning'}
          icon={view.resent ? <MailCheck /> : <TimerOff />}
        >
          {view.resent && (
            <FormAlert tone="success">
              A new reset link is on its way. Check your inbox; the link is valid for 1 hour.
            </FormAlert>
          )}
          {view.resendError && <FormAlert>{view.resendError}</FormAlert>}
          <div className={authStyles.actions}>
            {!view.resent && (
              <Button
                type="button"
                className={fullWidth}
                loading={view.busy}
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
        </StatusScreen>
      )

    case 'saved':
      return (
        <StatusScreen
          title="Password reset"
          tone="success"
          icon={<CircleCheck />}
          text="Your password has been reset. Taking you to sign in with your new password..."
        >
          <NavButton to="/login">Go to Login</NavButton>
        </StatusScreen>
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
            view.email ? (
              <>
                Choose a new password for <strong>{view.email}</strong>.
              </>
            ) : (
              'Choose a new password for your account.'
            )
          }
          footer={<BackToLogin />}
        >
          <NewPasswordForm
            password={view.password}
            confirm={view.confirm}
            busy={view.busy}
            submitLabel="Reset Password"
            send={(event) => actor.send(event)}
          >
            {view.formError && <FormAlert>{view.formError}</FormAlert>}
          </NewPasswordForm>
        </AuthLayout>
      )
  }
}
