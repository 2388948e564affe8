import type { ReactNode } from 'react'
import { AuthLayout } from './auth-layout.tsx'
import {
  BackToLogin,
  Pending,
  RedirectNote,
  StatusScreen,
  useNavigateEmitted,
  useSignedInEmitted,
} from './auth-parts.tsx'

/**
 * The screens of a link that does its work on its own (email confirmation, a one-time sign-in
 * link): the session and router follow what its machine emits, a call in progress shows as a
 * spinner and a refusal says so before the machine goes back to sign-in.
 */

/** The session starts on the machine's `signedIn`; its `navigate` is followed. */
export function useLinkEmitted(
  actor: Parameters<typeof useSignedInEmitted>[0] & Parameters<typeof useNavigateEmitted>[0],
) {
  useSignedInEmitted(actor)
  useNavigateEmitted(actor)
}

/** The link was refused: why, then the way back to sign-in (the machine goes there itself). */
export function LinkFailed(props: { title: string; icon: ReactNode; error: string | null }) {
  return (
    <StatusScreen title={props.title} tone="error" icon={props.icon} error={props.error}>
      <RedirectNote />
      <BackToLogin alone />
    </StatusScreen>
  )
}

/** The link's call in progress, or done and moving on. */
export function LinkPending(props: { title: string; text: string }) {
  return (
    <AuthLayout title={props.title}>
      <Pending text={props.text} />
    </AuthLayout>
  )
}
