import type { SnapshotFrom } from 'xstate'
import type { registerMachine } from './register.machine.ts'

export { registerMachine } from './register.machine.ts'
export type * from './register.types.ts'

type Snapshot = SnapshotFrom<typeof registerMachine>

export const selectValues = (snapshot: Snapshot) => snapshot.context.values
export const selectMarketingConsent = (snapshot: Snapshot) => snapshot.context.marketingConsent
export const selectEmailError = (snapshot: Snapshot) => snapshot.context.emailError
export const selectPasswordError = (snapshot: Snapshot) => snapshot.context.passwordError
export const selectMissing = (snapshot: Snapshot) => snapshot.context.missing
export const selectError = (snapshot: Snapshot) => snapshot.context.error
export const selectIsSubmitting = (snapshot: Snapshot) => snapshot.hasTag('loading')
export const selectIsRegistered = (snapshot: Snapshot) => snapshot.matches('registered')
/** Register is disabled while an email error exists or while submitting (spec section 5). */
export const selectCanSubmit = (snapshot: Snapshot) =>
  snapshot.context.emailError === null && !snapshot.hasTag('loading')

/** What register-page reads, through `useView`. */
export const registerView = {
  registered: selectIsRegistered,
  values: selectValues,
  consent: selectMarketingConsent,
  emailError: selectEmailError,
  passwordError: selectPasswordError,
  missing: selectMissing,
  error: selectError,
  submitting: selectIsSubmitting,
  canSubmit: selectCanSubmit,
}
