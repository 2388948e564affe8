import { useActorRef } from '@xstate/react'
import { MailCheck } from 'lucide-react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  forgotPasswordMachine,
  forgotPasswordView,
} from '../../../machines/forgot-password/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useView } from '../../app/use-view.ts'
import { AccountForm } from '../../components/password/account-form.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout } from './auth-layout.tsx'
import { BackToLogin, FormAlert, NavButton, StatusScreen, TextField } from './auth-parts.tsx'

/** The forgot-password machine with the real API call; tests pass their own `logic`. */
export const createForgotPasswordLogic = (actors = accountActors()) =>
  forgotPasswordMachine.provide({
    actors: { requestPasswordReset: actors.requestPasswordReset },
  })

export type ForgotPasswordLogic = ReturnType<typeof createForgotPasswordLogic>

const defaultLogic = createForgotPasswordLogic()

const submit = css({ w: 'full' })

/** /forgot-password: asks for a reset link (spec sections 2 and 8). */
export default function ForgotPasswordPage({
  logic = defaultLogic,
}: {
  logic?: ForgotPasswordLogic
}) {
  const actor = useActorRef(logic)
  const view = useView(actor, forgotPasswordView)

  if (view.sent) {
    return (
      <StatusScreen
        title="Check your email"
        tone="success"
        icon={<MailCheck />}
        text={AUTH_TEXTS.resetSent}
      >
        <NavButton to="/login">Return to Login</NavButton>
      </StatusScreen>
    )
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      lead="Enter the email address of your account and we will send you a link to reset your password."
      footer={<BackToLogin />}
    >
      <AccountForm onSubmit={() => actor.send({ type: 'submit' })}>
        <TextField
          label="Work Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={view.email}
          onValueChange={(value) => actor.send({ type: 'email.change', value })}
          error={view.emailError}
          disabled={view.sending}
        />
        {view.error && <FormAlert>{view.error}</FormAlert>}
        <Button
          type="submit"
          size="lg"
          className={submit}
          loading={view.sending}
          disabled={!view.canSubmit}
        >
          Send Reset Link
        </Button>
      </AccountForm>
    </AuthLayout>
  )
}
