import type { SnapshotFrom } from 'xstate'
import type { productsMachine } from './products.machine.ts'

export * from './products.machine.ts'
export type * from './products.types.ts'

type Snapshot = SnapshotFrom<typeof productsMachine>

const targetOf = (s: Snapshot) => {
  const action = s.context.action
  return action && 'id' in action
    ? (s.context.products.find((item) => item.id === action.id) ?? null)
    : null
}

/** What Settings → Products reads, through `useView`. */
export const productsView = {
  products: (s: Snapshot) => s.context.products,
  loading: (s: Snapshot) => s.hasTag('loading') && !s.context.loaded,
  listError: (s: Snapshot) => (s.matches('failed') ? s.context.listError : null),
  busy: (s: Snapshot) => s.hasTag('busy'),
  form: (s: Snapshot) => s.context.form,
  /** The dialog is open: 'add' or 'edit', else null. */
  dialog: (s: Snapshot) =>
    s.matches({ ready: 'editing' }) || s.matches({ ready: 'saving' })
      ? s.context.action?.kind === 'edit'
        ? ('edit' as const)
        : ('add' as const)
      : null,
  confirmingDelete: (s: Snapshot) =>
    s.matches({ ready: 'confirmingDelete' }) || s.matches({ ready: 'deleting' }),
  target: targetOf,
  actionError: (s: Snapshot) => s.context.actionError,
}
