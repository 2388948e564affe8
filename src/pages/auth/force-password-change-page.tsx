import { useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { KeyRound } from 'lucide-react'
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
import { useEmitted } from '../../app/use-emitted.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { AuthLayout, authStyles } from './auth-layout.tsx'
import { FormAlert, Pending, StatusBadge } from './auth-parts.tsx'

/** The forced-change machine with the real API call; tests pass their own `logic`. */
export const createForcePasswordChangeLogic = (actors = accountActors()) =>
  forcePasswordChangeMachine.provide({
    actors: { changePasswordForced: actors.changePasswordForced },
  })

export type ForcePasswordChangeLogic = ReturnType<typeof createForcePasswordChangeLogic>

const defaultLogic = createForcePasswordChangeLogic()

/** /force-password-change: the password change required before continuing (spec section 2). */
export default function ForcePasswordChangePage({
  logic = defaultLogic,
}: {
  logic?: ForcePasswordChangeLogic
}) {
  const actor = useActorRef(logic)
  const session = SessionContext.useActorRef()
  const navigate = useNavigate()
  // the new tokens are stored: the session starts again on them, then the app opens
  useEmitted(
    () => [
      actor.on('signedIn', (event) => {
        session.send({ type: 'session.login', claims: event.claims })
        void navigate({ to: '/', replace: true })
      }),
    ],
    [actor, session, navigate],
  )

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
      <NewPasswordForm
        password={password}
        confirm={confirm}
        busy={submitting}
        submitLabel="Change Password"
        onPassword={(value) => actor.send({ type: 'password.change', value })}
        onConfirm={(value) => actor.send({ type: 'confirm.change', value })}
        onSubmit={() => actor.send({ type: 'submit' })}
      >
        {error && <FormAlert>{error}</FormAlert>}
      </NewPasswordForm>
    </AuthLayout>
  )
}
