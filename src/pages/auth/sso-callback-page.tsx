import { useActorRef, useSelector } from '@xstate/react'
import { CircleCheck, ShieldAlert } from 'lucide-react'
import { css } from 'styled-system/css'
import { SSO_CALLBACK_TEXTS } from '../../../contract/sso.ts'
import {
  selectError,
  selectScreen,
  ssoCallbackMachine,
} from '../../../machines/sso-callback/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout } from './auth-layout.tsx'
import {
  Pending,
  StatusScreen,
  useNavigateEmitted,
  useSearchText,
  useSessionLoginEmitted,
} from './auth-parts.tsx'

export const createSsoCallbackLogic = (actors = accountActors()) =>
  ssoCallbackMachine.provide({ actors: { exchangeCode: actors.exchangeSsoCode } })
export type SsoCallbackLogic = ReturnType<typeof createSsoCallbackLogic>
const defaultLogic = createSsoCallbackLogic()

/** /auth/callback: the single sign-on return, with its one-time code (spec sections 2, 5, 8). */
export default function SsoCallbackPage({ logic = defaultLogic }: { logic?: SsoCallbackLogic }) {
  const code = useSearchText('code')
  const error = useSearchText('error')
  const description = useSearchText('error_description')
  return (
    <SsoCallbackFlow
      key={code ?? error ?? ''}
      logic={logic}
      input={{ code, error, error_description: description }}
    />
  )
}

function SsoCallbackFlow(props: {
  logic: SsoCallbackLogic
  input: { code?: string; error?: string; error_description?: string }
}) {
  const actor = useActorRef(props.logic, { input: props.input })
  useSessionLoginEmitted(actor)
  useNavigateEmitted(actor)
  const screen = useSelector(actor, selectScreen)
  const error = useSelector(actor, selectError)
  if (screen === 'error') {
    return (
      <StatusScreen
        title={SSO_CALLBACK_TEXTS.errorTitle}
        tone="error"
        icon={<ShieldAlert />}
        error={error}
      >
        <Button className={css({ w: 'full' })} onClick={() => actor.send({ type: 'retry' })}>
          {SSO_CALLBACK_TEXTS.tryAgain}
        </Button>
      </StatusScreen>
    )
  }
  if (screen === 'success') {
    return (
      <StatusScreen
        title="Signed in"
        tone="success"
        icon={<CircleCheck />}
        text={SSO_CALLBACK_TEXTS.success}
      />
    )
  }
  return (
    <AuthLayout title="Single Sign-On">
      <Pending text={SSO_CALLBACK_TEXTS.processing} />
    </AuthLayout>
  )
}
