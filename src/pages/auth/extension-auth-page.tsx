import { useNavigate } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { PlugZap, ShieldAlert } from 'lucide-react'
import { css } from 'styled-system/css'
import { EXTENSION_TEXTS } from '../../../contract/extension.ts'
import {
  extensionAuthMachine,
  selectError,
  selectScreen,
  selectSecurity,
} from '../../../machines/extension-auth/index.ts'
import { extensionActors } from '../../api/extension-actors.ts'
import { storePendingExtension } from '../../api/extension-handoff.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout } from './auth-layout.tsx'
import { Pending, StatusScreen, useSearchText } from './auth-parts.tsx'

export const createExtensionAuthLogic = (actors = extensionActors()) =>
  extensionAuthMachine.provide({ actors })
export type ExtensionAuthLogic = ReturnType<typeof createExtensionAuthLogic>
const defaultLogic = createExtensionAuthLogic()

const text = css({ textStyle: 'sm', color: 'fg.muted', textAlign: 'center' })
const full = css({ w: 'full' })

/** /extension/auth?redirect_uri&state&extension_id: connects the browser extension. */
export default function ExtensionAuthPage({
  logic = defaultLogic,
}: {
  logic?: ExtensionAuthLogic
}) {
  const input = {
    redirect_uri: useSearchText('redirect_uri') ?? null,
    state: useSearchText('state') ?? null,
    extension_id: useSearchText('extension_id') ?? null,
  }
  return (
    <ExtensionAuthFlow key={`${input.redirect_uri}:${input.state}`} logic={logic} input={input} />
  )
}

function ExtensionAuthFlow(props: {
  logic: ExtensionAuthLogic
  input: { redirect_uri: string | null; state: string | null; extension_id: string | null }
}) {
  const actor = useActorRef(props.logic, { input: props.input })
  const navigate = useNavigate()
  useEmitted(
    () => [
      actor.on('storePending', (event) =>
        storePendingExtension({ redirectUri: event.redirectUri, state: event.state }),
      ),
      actor.on('navigate', (event) => void navigate({ to: event.to })),
      actor.on('redirect', (event) => window.location.assign(event.url)),
      actor.on('closeWindow', () => window.close()),
    ],
    [actor, navigate],
  )
  const screen = useSelector(actor, selectScreen)
  const error = useSelector(actor, selectError)
  const security = useSelector(actor, selectSecurity)
  if (screen === 'error') {
    return (
      <StatusScreen
        title={security ? EXTENSION_TEXTS.securityTitle : EXTENSION_TEXTS.title}
        tone="error"
        icon={<ShieldAlert />}
        error={error}
      >
        <Button variant="outline" className={full} onClick={() => actor.send({ type: 'close' })}>
          {EXTENSION_TEXTS.closeWindow}
        </Button>
      </StatusScreen>
    )
  }
  if (screen === 'not_authenticated') {
    return (
      <StatusScreen title={EXTENSION_TEXTS.title} tone="info" icon={<PlugZap />}>
        <p className={text}>{EXTENSION_TEXTS.notAuthenticated}</p>
        <Button className={full} onClick={() => actor.send({ type: 'login' })}>
          {EXTENSION_TEXTS.continueToLogin}
        </Button>
      </StatusScreen>
    )
  }
  return (
    <AuthLayout title={EXTENSION_TEXTS.title}>
      <Pending
        text={screen === 'redirecting' ? EXTENSION_TEXTS.redirecting : EXTENSION_TEXTS.checking}
      />
    </AuthLayout>
  )
}
