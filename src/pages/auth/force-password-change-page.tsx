import { useActorRef } from '@xstate/react'
import { KeyRound } from 'lucide-react'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  forcePasswordChangeMachine,
  forcePasswordChangeView,
} from '../../../machines/force-password-change/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useView } from '../../app/use-view.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { AuthLayout } from './auth-layout.tsx'
import { FormAlert, Pending, StatusScreen, useSignedInEmitted } from './auth-parts.tsx'

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
  // the new tokens are stored: the session starts again on them, then the app opens
  useSignedInEmitted(actor)

  const view = useView(actor, forcePasswordChangeView)

  if (view.changed) {
    return (
      <AuthLayout title="Change Your Password">
        <Pending text="Password changed. Signing you in..." />
      </AuthLayout>
    )
  }

  return (
    <StatusScreen
      title="Change Your Password"
      lead={AUTH_TEXTS.passwordChangeRequired}
      tone="info"
      icon={<KeyRound />}
    >
      <NewPasswordForm
        password={view.password}
        confirm={view.confirm}
        busy={view.submitting}
        submitLabel="Change Password"
        send={(event) => actor.send(event)}
      >
        {view.error && <FormAlert>{view.error}</FormAlert>}
      </NewPasswordForm>
    </StatusScreen>
  )
}
