import { useActorRef } from '@xstate/react'
import { CircleCheck, Unlink } from 'lucide-react'
import type { LinkInput } from '../../../machines/account.ts'
import { setPasswordMachine, setPasswordView } from '../../../machines/set-password/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useView } from '../../app/use-view.ts'
import { NewPasswordForm } from '../../components/password/new-password-form.tsx'
import { AuthLayout } from './auth-layout.tsx'
import {
  BackToLogin,
  FormAlert,
  NavButton,
  Pending,
  StatusScreen,
  useLinkInput,
  useNavigateEmitted,
  useSignedInEmitted,
} from './auth-parts.tsx'

/** The set-password machine with the real API call; tests pass their own `logic`. */
export const createSetPasswordLogic = (actors = accountActors()) =>
  setPasswordMachine.provide({ actors: { setPassword: actors.setPassword } })

export type SetPasswordLogic = ReturnType<typeof createSetPasswordLogic>

const defaultLogic = createSetPasswordLogic()

/** /set-password?uid&token: a first password from an invite link (spec sections 2, 5 and 8). */
export default function SetPasswordPage({ logic = defaultLogic }: { logic?: SetPasswordLogic }) {
  const link = useLinkInput()
  return <SetPasswordFlow key={link.key} logic={logic} input={link.input} />
}

function SetPasswordFlow(props: { logic: SetPasswordLogic; input: LinkInput }) {
  const actor = useActorRef(props.logic, { input: props.input })
  useNavigateEmitted(actor)
  useSignedInEmitted(actor)

  const view = useView(actor, setPasswordView)

  switch (view.screen) {
    case 'checking':
      return (
        <AuthLayout title="Set Your Password">
          <Pending text="Validating token..." />
        </AuthLayout>
      )

    case 'invalid':
      return (
        <StatusScreen
          title="Invalid or Expired Link"
          lead="Ask your administrator to send you a new invitation."
          tone="error"
          icon={<Unlink />}
          error={view.linkError}
        >
          <BackToLogin alone />
        </StatusScreen>
      )

    case 'signedIn':
      return (
        <StatusScreen
          title="Password set"
          tone="success"
          icon={<CircleCheck />}
          text="Your password has been set. Signing you in..."
        />
      )

    case 'saved':
      return (
        <StatusScreen
          title="Password set"
          tone="success"
          icon={<CircleCheck />}
          text="Your password has been set. Taking you to sign in with it..."
        >
          <NavButton to="/login">Go to Login</NavButton>
        </StatusScreen>
      )

    case 'form':
      return (
        <AuthLayout
          title="Set Your Password"
          lead="Welcome to Quire. Choose a password to activate your account."
          footer={<BackToLogin />}
        >
          <NewPasswordForm
            password={view.password}
            confirm={view.confirm}
            busy={view.submitting}
            submitLabel="Set Password"
            send={(event) => actor.send(event)}
          >
            {view.formError && <FormAlert>{view.formError}</FormAlert>}
          </NewPasswordForm>
        </AuthLayout>
      )
  }
}
