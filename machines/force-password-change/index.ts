import type { SnapshotFrom } from 'xstate'
import type { forcePasswordChangeMachine } from './force-password-change.machine.ts'

export { forcePasswordChangeMachine } from './force-password-change.machine.ts'
export type * from './force-password-change.types.ts'

type Snapshot = SnapshotFrom<typeof forcePasswordChangeMachine>

export const selectPassword = (snapshot: Snapshot) => snapshot.context.password
export const selectConfirm = (snapshot: Snapshot) => snapshot.context.confirm
export const selectError = (snapshot: Snapshot) => snapshot.context.formError
export const selectIsSubmitting = (snapshot: Snapshot) => snapshot.hasTag('loading')
export const selectIsChanged = (snapshot: Snapshot) => snapshot.matches('changed')

/** What force-password-change-page reads, through `useView`. */
export const forcePasswordChangeView = {
  changed: selectIsChanged,
  password: selectPassword,
  confirm: selectConfirm,
  error: selectError,
  submitting: selectIsSubmitting,
}
