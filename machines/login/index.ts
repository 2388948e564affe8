import type { SnapshotFrom } from 'xstate'
import type { loginMachine } from './login.machine.ts'

export { loginFailureText, ssoMessageText } from './failures.ts'
export { loginMachine } from './login.machine.ts'
export type * from './login.types.ts'

type Snapshot = SnapshotFrom<typeof loginMachine>

export type LoginStep = 'email' | 'sso' | 'password'

const EMAIL_STATES = ['email', 'discovering', 'discoveryFallback', 'googleStarting'] as const
const SSO_STATES = ['sso', 'ssoRedirecting'] as const

/** Which of the three steps the screen shows. */
export const selectStep = (snapshot: Snapshot): LoginStep =>
  EMAIL_STATES.some((state) => snapshot.matches(state))
    ? 'email'
    : SSO_STATES.some((state) => snapshot.matches(state))
      ? 'sso'
      : 'password'

export const selectEmail = (snapshot: Snapshot) => snapshot.context.email
export const selectPassword = (snapshot: Snapshot) => snapshot.context.password
export const selectError = (snapshot: Snapshot) => snapshot.context.error
export const selectNotice = (snapshot: Snapshot) => snapshot.context.notice
export const selectOrganization = (snapshot: Snapshot) => snapshot.context.sso?.organization ?? ''
/** A check, sign-in or redirect is under way. */
export const selectIsLoading = (snapshot: Snapshot) => snapshot.hasTag('loading')
/** The step's main button is enabled. */
export const selectCanSubmit = (snapshot: Snapshot) =>
  snapshot.hasTag('submittable') && !snapshot.hasTag('loading')
/** 'Redirecting...' on the sso step. */
export const selectIsSsoRedirecting = (snapshot: Snapshot) => snapshot.matches('ssoRedirecting')
/** The Google button is at work (the button itself or the automatic redirect). */
export const selectIsGoogleRedirecting = (snapshot: Snapshot) =>
  snapshot.matches('googleStarting') ||
  snapshot.matches('googleRedirectPending') ||
  snapshot.matches('googleRedirecting')
/** Continue is at work: discovery, or the pause after a 500. */
export const selectIsChecking = (snapshot: Snapshot) =>
  snapshot.matches('discovering') || snapshot.matches('discoveryFallback')
/** 'Signing in...': the request, storing the tokens, the hand-off, the pause, the way out. */
export const selectIsSigningIn = (snapshot: Snapshot) =>
  (
    [
      'signingIn',
      'storingTokens',
      'handingOff',
      'pausing',
      'passwordChangeRequired',
      'signedIn',
    ] as const
  ).some((state) => snapshot.matches(state))

/** The Google button shows unless the server says Google is not configured. */
export const selectGoogleOffered = (snapshot: Snapshot) => snapshot.context.google !== false

/** What login-page reads, through `useView`. */
export const loginView = {
  step: selectStep,
  email: selectEmail,
  password: selectPassword,
  error: selectError,
  notice: selectNotice,
  organization: selectOrganization,
  loading: selectIsLoading,
  canSubmit: selectCanSubmit,
  checking: selectIsChecking,
  signingIn: selectIsSigningIn,
  ssoRedirecting: selectIsSsoRedirecting,
  googleRedirecting: selectIsGoogleRedirecting,
  googleOffered: selectGoogleOffered,
}
