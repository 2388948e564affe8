import type { SnapshotFrom } from 'xstate'
import { screenOf } from '../account.ts'
import type { resetPasswordMachine } from './reset-password.machine.ts'

export { resetPasswordMachine } from './reset-password.machine.ts'
export type * from './reset-password.types.ts'

type Snapshot = SnapshotFrom<typeof resetPasswordMachine>

/** Which screen shows: the check, the three outcomes, and the form's two endings. */
export const selectScreen = (snapshot: Snapshot) =>
  screenOf(
    snapshot,
    [
      ['checking', 'checking'],
      ['invalid', 'invalid'],
      ['expired', 'expired'],
      ['saved', { valid: 'saved' }],
      ['rejected', { valid: 'rejected' }],
    ],
    'form',
  )
export type ResetPasswordScreen = ReturnType<typeof selectScreen>

export const selectEmail = (snapshot: Snapshot) => snapshot.context.email
export const selectPassword = (snapshot: Snapshot) => snapshot.context.password
export const selectConfirm = (snapshot: Snapshot) => snapshot.context.confirm
export const selectLinkError = (snapshot: Snapshot) => snapshot.context.linkError
export const selectFormError = (snapshot: Snapshot) => snapshot.context.formError
export const selectResendError = (snapshot: Snapshot) => snapshot.context.resendError
export const selectIsResent = (snapshot: Snapshot) => snapshot.matches({ expired: 'sent' })
export const selectIsBusy = (snapshot: Snapshot) => snapshot.hasTag('loading')

/** What reset-password-page reads, through `useView`. */
export const resetPasswordView = {
  screen: selectScreen,
  email: selectEmail,
  linkError: selectLinkError,
  formError: selectFormError,
  resendError: selectResendError,
  resent: selectIsResent,
  busy: selectIsBusy,
  password: selectPassword,
  confirm: selectConfirm,
}
