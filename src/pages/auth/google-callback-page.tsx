import { useActorRef, useSelector } from '@xstate/react'
import { ShieldAlert } from 'lucide-react'
import { GOOGLE_CALLBACK_TEXTS } from '../../../contract/sso.ts'
import {
  googleCallbackMachine,
  selectError,
  selectFailed,
} from '../../../machines/google-callback/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { AuthLayout } from './auth-layout.tsx'
import {
  Pending,
  RedirectNote,
  StatusScreen,
  useNavigateEmitted,
  useSearchText,
  useSessionLoginEmitted,
} from './auth-parts.tsx'

export const createGoogleCallbackLogic = (actors = accountActors()) =>
  googleCallbackMachine.provide({ actors: { completeGoogle: actors.completeGoogle } })
export type GoogleCallbackLogic = ReturnType<typeof createGoogleCallbackLogic>
const defaultLogic = createGoogleCallbackLogic()

/** /auth/social/google/callback: Google's return (spec sections 2, 5 and 8). */
export default function GoogleCallbackPage({
  logic = defaultLogic,
}: {
  logic?: GoogleCallbackLogic
}) {
  const input = {
    code: useSearchText('code'),
    state: useSearchText('state'),
    error: useSearchText('error'),
    iss: useSearchText('iss'),
  }
  return <GoogleCallbackFlow key={`${input.code}:${input.state}`} logic={logic} input={input} />
}

function GoogleCallbackFlow(props: {
  logic: GoogleCallbackLogic
  input: { code?: string; state?: string; error?: string; iss?: string }
}) {
  const actor = useActorRef(props.logic, { input: props.input })
  useSessionLoginEmitted(actor)
  useNavigateEmitted(actor)
  const failed = useSelector(actor, selectFailed)
  const error = useSelector(actor, selectError)
  if (failed) {
    return (
      <StatusScreen
        title={GOOGLE_CALLBACK_TEXTS.errorTitle}
        tone="error"
        icon={<ShieldAlert />}
        error={error}
      >
        <RedirectNote />
      </StatusScreen>
    )
  }
  return (
    <AuthLayout title="Google Sign-In">
      <Pending text={GOOGLE_CALLBACK_TEXTS.completing} />
    </AuthLayout>
  )
}
