import { useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { KeyRound } from 'lucide-react'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  forcePasswordChangeMachine,
  selectConfirm,
  selectError,
  selectIsChanged,
  selectIsSubmitting,
  selectPassword,
} from '../../../machines/force-password-change/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import { FormAlert, PasswordField, Pending, StatusBadge } from './auth-parts.tsx'

/** The forced-change machine with the real API call; tests pass their own `logic`. */
export const createForcePasswordChangeLogic = (actors = accountActors()) =>
  forcePasswordChangeMachine.provide({
    actors: { changePasswordForced: actors.changePasswordForced },
  })

export type ForcePasswordChangeLogic = ReturnType<typeof createForcePasswordChangeLogic>

const defaultLogic = createForcePasswordChangeLogic()

const fullWidth = css({ w: 'full' })

/** /force-password-change: the password change required before continuing (spec section 2). */
export default function ForcePasswordChangePage({
  logic = defaultLogic,
}: {
  logic?: ForcePasswordChangeLogic
}) {
  const actor = useActorRef(logic)
  const session = SessionContext.useActorRef()
  const navigate = useNavigate()
  useEffect(() => {
    // the new tokens are stored: the session starts again on them, then the app opens
    const sub = actor.on('signedIn', (event) => {
      session.send({ type: 'session.login', claims: event.claims })
      void navigate({ to: '/', replace: true })
    })
    return () => sub.unsubscribe()
  }, [actor, session, navigate])

  const changed = useSelector(actor, selectIsChanged)
  const password = useSelector(actor, selectPassword)
  const confirm = useSelector(actor, selectConfirm)
  const error = useSelector(actor, selectError)
  const submitting = useSelector(actor, selectIsSubmitting)

  if (changed) {
    return (
      <AuthLayout title="Change Your Password">
        <Pending text="Password changed. Signing you in..." />
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title="Change Your Password" lead={AUTH_TEXTS.passwordChangeRequired}>
      <div className={authStyles.center}>
        <StatusBadge>
          <KeyRound />
        </StatusBadge>
      </div>
      <form
        className={authStyles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: 'submit' })
        }}
      >
        <PasswordField
          label="New password"
          name="new_password"
          autoComplete="new-password"
          value={password}
          onValueChange={(value) => actor.send({ type: 'password.change', value })}
          helper={AUTH_TEXTS.passwordHint}
          disabled={submitting}
        />
        <PasswordField
          label="Confirm password"
          name="confirm_password"
          autoComplete="new-password"
          value={confirm}
          onValueChange={(value) => actor.send({ type: 'confirm.change', value })}
          disabled={submitting}
        />
        {error && <FormAlert>{error}</FormAlert>}
        <Button type="submit" size="lg" className={fullWidth} loading={submitting}>
          Change Password
        </Button>
      </form>
    </AuthLayout>
  )
}
