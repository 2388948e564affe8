import type { SnapshotFrom } from 'xstate'
import { screenOf } from '../account.ts'
import type { setPasswordMachine } from './set-password.machine.ts'

export { setPasswordMachine } from './set-password.machine.ts'
export type * from './set-password.types.ts'

type Snapshot = SnapshotFrom<typeof setPasswordMachine>

/** Which screen shows. */
export const selectScreen = (snapshot: Snapshot) =>
  screenOf(
    snapshot,
    [
      ['checking', 'checking'],
      ['invalid', 'invalid'],
      ['saved', 'saved'],
      ['signedIn', 'signedIn'],
    ],
    'form',
  )
export type SetPasswordScreen = ReturnType<typeof selectScreen>

export const selectPassword = (snapshot: Snapshot) => snapshot.context.password
export const selectConfirm = (snapshot: Snapshot) => snapshot.context.confirm
export const selectLinkError = (snapshot: Snapshot) => snapshot.context.linkError
export const selectFormError = (snapshot: Snapshot) => snapshot.context.formError
export const selectIsSubmitting = (snapshot: Snapshot) => snapshot.matches({ form: 'submitting' })

/** What set-password-page reads, through `useView`. */
export const setPasswordView = {
  screen: selectScreen,
  linkError: selectLinkError,
  formError: selectFormError,
  submitting: selectIsSubmitting,
  password: selectPassword,
  confirm: selectConfirm,
}
