import type { SnapshotFrom } from 'xstate'
import type { confirmEmailMachine } from './confirm-email.machine.ts'

export { confirmEmailMachine } from './confirm-email.machine.ts'
export type * from './confirm-email.types.ts'

type Snapshot = SnapshotFrom<typeof confirmEmailMachine>

/** Which screen shows. */
export const selectScreen = (snapshot: Snapshot) =>
  snapshot.matches('failed')
    ? 'failed'
    : snapshot.matches('confirmed')
      ? 'confirmed'
      : snapshot.matches('awaitingApproval')
        ? 'awaitingApproval'
        : snapshot.matches('alreadyConfirmed')
          ? 'alreadyConfirmed'
          : 'confirming'
export type ConfirmEmailScreen = ReturnType<typeof selectScreen>

export const selectError = (snapshot: Snapshot) => snapshot.context.error
