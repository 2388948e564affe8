import type { SnapshotFrom } from 'xstate'
import type { forgotPasswordMachine } from './forgot-password.machine.ts'

export { forgotPasswordMachine } from './forgot-password.machine.ts'
export type * from './forgot-password.types.ts'

type Snapshot = SnapshotFrom<typeof forgotPasswordMachine>

export const selectEmail = (snapshot: Snapshot) => snapshot.context.email
export const selectEmailError = (snapshot: Snapshot) => snapshot.context.emailError
export const selectError = (snapshot: Snapshot) => snapshot.context.error
export const selectIsSending = (snapshot: Snapshot) => snapshot.hasTag('loading')
export const selectIsSent = (snapshot: Snapshot) => snapshot.matches('sent')
/** 'Send Reset Link' is disabled while the email is blank or the request runs. */
export const selectCanSubmit = (snapshot: Snapshot) =>
  snapshot.context.email.trim() !== '' && !snapshot.hasTag('loading')

/** What forgot-password-page reads, through `useView`. */
export const forgotPasswordView = {
  sent: selectIsSent,
  email: selectEmail,
  emailError: selectEmailError,
  error: selectError,
  sending: selectIsSending,
  canSubmit: selectCanSubmit,
}
