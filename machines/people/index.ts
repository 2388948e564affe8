import type { SnapshotFrom } from 'xstate'
import type { peopleMachine } from './people.machine.ts'

export { peopleMachine } from './people.machine.ts'
export type * from './people.types.ts'

type Snapshot = SnapshotFrom<typeof peopleMachine>

/** What Settings → People reads, through `useView`. */
export const peopleView = {
  people: (s: Snapshot) => s.context.results,
  count: (s: Snapshot) => s.context.count,
  query: (s: Snapshot) => s.context.query,
  loading: (s: Snapshot) => s.hasTag('loading') && !s.context.results.length,
  listError: (s: Snapshot) => (s.matches({ list: 'failed' }) ? s.context.listError : null),
  busy: (s: Snapshot) => s.hasTag('busy'),
  busyId: (s: Snapshot) => (s.hasTag('busy') ? (s.context.action?.id ?? null) : null),
  invite: (s: Snapshot) => s.context.invite,
  inviting: (s: Snapshot) => s.matches({ action: 'inviting' }),
  confirmingRemoval: (s: Snapshot) =>
    s.matches({ action: 'confirmingRemoval' }) || s.matches({ action: 'removing' }),
  confirmingPassword: (s: Snapshot) =>
    s.matches({ action: 'confirmingTemporaryPassword' }) ||
    s.matches({ action: 'generatingPassword' }),
  temporary: (s: Snapshot) =>
    s.matches({ action: 'showingPassword' }) ? s.context.temporary : null,
  target: (s: Snapshot) =>
    s.context.results.find((person) => person.id === s.context.action?.id) ?? null,
  actionError: (s: Snapshot) => s.context.actionError,
  notice: (s: Snapshot) => s.context.notice,
}
