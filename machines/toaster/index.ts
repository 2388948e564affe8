import type { SnapshotFrom } from 'xstate'
import type { toasterMachine } from './toaster.machine.ts'
import type { Toast } from './toaster.types.ts'

export { toastMachine } from './toast.machine.ts'
export type * from './toast.types.ts'
export { toasterMachine } from './toaster.machine.ts'
export type * from './toaster.types.ts'

export type ToasterSnapshot = SnapshotFrom<typeof toasterMachine>

/** The toasts on screen, oldest first, at most `TOAST_MAX_VISIBLE`; one stable array per change. */
export const selectVisibleToasts = (snapshot: ToasterSnapshot): readonly Toast[] =>
  snapshot.context.visible

/** How many toasts wait for room on screen. */
export const selectQueuedCount = (snapshot: ToasterSnapshot): number =>
  snapshot.context.queued.length
