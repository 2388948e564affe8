import { assign, emit, fromPromise, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { Role } from '../../contract/roles.ts'
import type { AdminUser, TemporaryPassword } from '../../contract/users.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { LIST_SEARCH_DEBOUNCE_MS } from '../constants.ts'
import { searched } from '../shared-actions.ts'
import type {
  InviteForm,
  PeopleContext,
  PeopleEvents,
  PeopleQuery,
  PersonAction,
} from './people.types.ts'

/** What the people flow's chart names (people.machine.ts): its types, calls, actions and guards. */

const mustBeProvided = mustBeProvidedIn('peopleMachine')

export const EMPTY_INVITE: InviteForm = {
  email: '',
  first_name: '',
  last_name: '',
  role: 'contributor',
}

const actors = {
  loadPeople: fromPromise<{ count: number; results: AdminUser[] }, PeopleQuery>(
    mustBeProvided('loadPeople'),
  ),
  invite: fromPromise<AdminUser, InviteForm>(mustBeProvided('invite')),
  changeRole: fromPromise<AdminUser, { id: number; role: Role }>(mustBeProvided('changeRole')),
  removePerson: fromPromise<void, { id: number }>(mustBeProvided('removePerson')),
  approvePerson: fromPromise<void, { id: number }>(mustBeProvided('approvePerson')),
  rejectPerson: fromPromise<void, { id: number }>(mustBeProvided('rejectPerson')),
  sendMagicLink: fromPromise<void, { id: number }>(mustBeProvided('sendMagicLink')),
  temporaryPassword: fromPromise<TemporaryPassword, { id: number }>(
    mustBeProvided('temporaryPassword'),
  ),
}

/** What most calls are given: the id of the person the action is about. */
export const byId = ({ context }: { context: PeopleContext }) => ({ id: context.action?.id ?? 0 })

/** Why a call failed, as the params of `setActionError`. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error

export const peopleSetup = setup({
  types: {
    context: {} as PeopleContext,
    events: {} as PeopleEvents,
    /** After each change the server recorded: the page refreshes the audit log. */
    emitted: {} as { type: 'changed' },
  },
  actors,
  delays: { searchDebounce: LIST_SEARCH_DEBOUNCE_MS },
  actions: {
    setSearch: assign(({ context, event }) => searched(context.query, event)),
    setFilter: assign(({ context }, filter: Pick<PeopleQuery, 'role' | 'status'>) => ({
      query: { ...context.query, ...filter, page: 1 },
    })),
    setPage: assign(({ context }, page: number) => ({
      query: { ...context.query, page: Math.max(1, page) },
    })),
    setPeople: assign((_, output: { count: number; results: AdminUser[] }) => ({
      count: output.count,
      results: output.results,
      listError: null,
    })),
    setListError: assign((_, error: unknown) => ({
      listError: errorMessage(error, 'The list of people could not be loaded.'),
    })),
    openInvite: assign({ invite: EMPTY_INVITE, actionError: null, notice: null }),
    editInvite: assign(({ context }, change: Partial<InviteForm>) => ({
      invite: { ...context.invite, ...change },
      actionError: null,
    })),
    target: assign((_, action: PersonAction) => ({
      action,
      actionError: null,
      notice: null,
      temporary: null,
    })),
    clearAction: assign({ action: null, temporary: null }),
    setActionError: assign((_, error: unknown) => ({
      actionError: errorMessage(error, 'That did not work. Try again.'),
    })),
    setNotice: assign((_, notice: string) => ({ notice })),
    keepTemporary: assign((_, temporary: TemporaryPassword) => ({ temporary })),
    dismissNotice: assign({ notice: null }),
    // the list region reloads after a change
    reloadList: raise({ type: 'refresh' }),
    emitChanged: emit({ type: 'changed' as const }),
  },
  guards: {
    inviteHasEmail: ({ context }) => context.invite.email.trim().includes('@'),
  },
})
