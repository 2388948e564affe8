import { useActorRef, useSelector } from '@xstate/react'
import { LinkIcon } from 'lucide-react'
import { magicLinkMachine, selectError, selectScreen } from '../../../machines/magic-link/index.ts'
import { accountActors } from '../../api/account-actors.ts'
import { useSearchText } from './auth-parts.tsx'
import { LinkFailed, LinkPending, useLinkEmitted } from './link-flow.tsx'

/** The magic-link machine with the real API call; tests pass their own `logic`. */
export const createMagicLinkLogic = (actors = accountActors()) =>
  magicLinkMachine.provide({ actors: { redeemMagicLink: actors.redeemMagicLink } })

export type MagicLinkLogic = ReturnType<typeof createMagicLinkLogic>

const defaultLogic = createMagicLinkLogic()

/** /magic-link?uid&token: an administrator's one-time sign-in link, redeemed by itself. */
export default function MagicLinkPage({ logic = defaultLogic }: { logic?: MagicLinkLogic }) {
  const uid = useSearchText('uid')
  const token = useSearchText('token')
  // a different link is a different sign-in
  return <MagicLinkFlow key={`${uid}:${token}`} logic={logic} uid={uid} token={token} />
}

function MagicLinkFlow(props: { logic: MagicLinkLogic; uid?: string; token?: string }) {
  const actor = useActorRef(props.logic, { input: { uid: props.uid, token: props.token } })
  useLinkEmitted(actor)

  const screen = useSelector(actor, selectScreen)
  const error = useSelector(actor, selectError)

  if (screen === 'failed') {
    return <LinkFailed title="Sign-in link not valid" icon={<LinkIcon />} error={error} />
  }

  return (
    <LinkPending
      title="Signing in"
      text={screen === 'done' ? 'Signed in. Opening Quire...' : 'Signing you in...'}
    />
  )
}
