import type { SnapshotFrom } from 'xstate'
import type { AdminUser } from '../../contract/users.ts'
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
  /** A refusal outside the dialogs (a role, a link, an approval), shown above the list. */
  pageError: (s: Snapshot) =>
    s.matches({ action: 'inviting' }) ||
    s.matches({ action: 'confirmingRemoval' }) ||
    s.matches({ action: 'removing' }) ||
    s.matches({ action: 'confirmingTemporaryPassword' }) ||
    s.matches({ action: 'generatingPassword' })
      ? null
      : s.context.actionError,
  notice: (s: Snapshot) => s.context.notice,
  /** The pager's words and numbers. */
  pager: (s: Snapshot) => {
    const { count, query } = s.context
    const pages = Math.max(1, Math.ceil(count / query.page_size))
    return {
      page: query.page,
      pages,
      total: `${count} ${count === 1 ? 'person' : 'people'}`,
      position: `Page ${query.page} of ${pages}`,
    }
  },
  /** The person an open dialog is about, by name. */
  targetName: (s: Snapshot) => {
    const person = s.context.results.find((one) => one.id === s.context.action?.id)
    return person ? personName(person) : null
  },
}

/** A person as the list names them: their name, else their email. */
export const personName = (person: AdminUser) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ') || person.email

/**
 * What a person's row offers, ready for the view: whether their role can change, whether they
 * await approval, and which of the row's menu items show (none for someone removed).
 */
export function personRow(person: AdminUser, options: { selfId: number | null; busy: boolean }) {
  const you = person.id === options.selfId
  const active = person.status === 'active'
  const listed = person.status !== 'removed' && person.status !== 'pending'
  return {
    name: personName(person),
    you,
    roleDisabled: options.busy || person.status === 'removed',
    awaitingApproval: person.status === 'pending',
    menu: listed ? { signInHelp: active && !you, remove: true } : null,
  }
}
