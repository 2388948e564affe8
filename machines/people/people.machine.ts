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

const mustBeProvided = mustBeProvidedIn('peopleMachine')

const EMPTY_INVITE: InviteForm = { email: '', first_name: '', last_name: '', role: 'contributor' }

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
const byId = ({ context }: { context: PeopleContext }) => ({ id: context.action?.id ?? 0 })

/** Why a call failed, as the params of `setActionError`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/**
 * Settings → People (admins): the organisation's people, searched (after a pause in typing),
 * filtered by role and status, a page at a time; inviting a colleague; changing a role; removing
 * someone after a confirmation; sending a one-time sign-in link; a temporary password shown once.
 * The list and the action run side by side: the list reloads after each change.
 */
export const peopleMachine = setup({
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
}).createMachine({
  id: 'people',
  context: {
    query: { page: 1, page_size: 25, q: '', role: '', status: '' },
    count: 0,
    results: [],
    listError: null,
    invite: EMPTY_INVITE,
    action: null,
    actionError: null,
    notice: null,
    temporary: null,
  },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      on: {
        'search.change': { target: '.typing', reenter: true, actions: 'setSearch' },
        'filter.change': {
          target: '.loading',
          actions: {
            type: 'setFilter',
            params: ({ event }) => ({ role: event.role, status: event.status }),
          },
        },
        'page.change': {
          target: '.loading',
          actions: { type: 'setPage', params: ({ event }) => event.page },
        },
        refresh: '.loading',
      },
      states: {
        typing: {
          description: 'Waits for a pause in typing before searching.',
          after: { searchDebounce: 'loading' },
        },
        loading: {
          tags: 'loading',
          invoke: {
            id: 'loadPeople',
            src: 'loadPeople',
            input: ({ context }) => context.query,
            onDone: {
              target: 'ready',
              actions: { type: 'setPeople', params: ({ event }) => event.output },
            },
            onError: {
              target: 'failed',
              actions: { type: 'setListError', params: errorOf },
            },
          },
        },
        ready: {},
        failed: { description: 'Says the list could not be loaded; refresh tries again.' },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'invite.open': { target: 'inviting', actions: 'openInvite' },
            'role.change': {
              target: 'changingRole',
              actions: {
                type: 'target',
                params: ({ event }) => ({ kind: 'role', id: event.id, role: event.role }),
              },
            },
            'remove.ask': {
              target: 'confirmingRemoval',
              actions: {
                type: 'target',
                params: ({ event }) => ({ kind: 'remove', id: event.id }),
              },
            },
            'join.approve': {
              target: 'approving',
              actions: { type: 'target', params: ({ event }) => ({ kind: 'join', id: event.id }) },
            },
            'join.reject': {
              target: 'rejecting',
              actions: { type: 'target', params: ({ event }) => ({ kind: 'join', id: event.id }) },
            },
            'magicLink.send': {
              target: 'sendingLink',
              actions: {
                type: 'target',
                params: ({ event }) => ({ kind: 'magicLink', id: event.id }),
              },
            },
            'temporaryPassword.ask': {
              target: 'confirmingTemporaryPassword',
              actions: {
                type: 'target',
                params: ({ event }) => ({ kind: 'temporaryPassword', id: event.id }),
              },
            },
            'notice.dismiss': { actions: 'dismissNotice' },
          },
        },
        inviting: {
          description: 'The invite dialog: email, names and role.',
          initial: 'editing',
          on: { 'dialog.close': { target: 'idle', actions: 'clearAction' } },
          states: {
            editing: {
              on: {
                'invite.edit': {
                  actions: { type: 'editInvite', params: ({ event }) => event.change },
                },
                'invite.submit': [
                  { guard: 'inviteHasEmail', target: 'sending' },
                  {
                    actions: {
                      type: 'setActionError',
                      params: new Error('Please enter a valid email address'),
                    },
                  },
                ],
              },
            },
            sending: {
              tags: 'busy',
              invoke: {
                id: 'invite',
                src: 'invite',
                input: ({ context }) => context.invite,
                onDone: {
                  target: '#people.action.idle',
                  actions: [
                    'clearAction',
                    {
                      type: 'setNotice',
                      params: ({ event }) => `Invitation sent to ${event.output.email}.`,
                    },
                    'reloadList',
                    'emitChanged',
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: { type: 'setActionError', params: errorOf },
                },
              },
            },
          },
        },
        changingRole: {
          tags: 'busy',
          invoke: {
            id: 'changeRole',
            src: 'changeRole',
            input: ({ context }) => ({
              id: context.action?.id ?? 0,
              role: context.action?.role ?? 'viewer',
            }),
            onDone: { target: 'idle', actions: ['clearAction', 'reloadList', 'emitChanged'] },
            onError: {
              description: 'A refused role reloads the list, which shows the old one again.',
              target: 'idle',
              actions: [{ type: 'setActionError', params: errorOf }, 'clearAction', 'reloadList'],
            },
          },
        },
        confirmingRemoval: {
          description: 'Asks before removing: their sessions end at once.',
          on: {
            'remove.confirm': 'removing',
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        removing: {
          tags: 'busy',
          invoke: {
            id: 'removePerson',
            src: 'removePerson',
            input: byId,
            onDone: {
              target: 'idle',
              actions: [
                'clearAction',
                { type: 'setNotice', params: 'Removed. Their sessions have ended.' },
                'reloadList',
                'emitChanged',
              ],
            },
            onError: {
              target: 'confirmingRemoval',
              actions: { type: 'setActionError', params: errorOf },
            },
          },
        },
        approving: {
          tags: 'busy',
          invoke: {
            id: 'approvePerson',
            src: 'approvePerson',
            input: byId,
            onDone: {
              target: 'idle',
              actions: [
                'clearAction',
                { type: 'setNotice', params: 'Approved. They can sign in now; we emailed them.' },
                'reloadList',
                'emitChanged',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setActionError', params: errorOf }, 'clearAction'],
            },
          },
        },
        rejecting: {
          tags: 'busy',
          invoke: {
            id: 'rejectPerson',
            src: 'rejectPerson',
            input: byId,
            onDone: {
              target: 'idle',
              actions: [
                'clearAction',
                { type: 'setNotice', params: 'Request to join rejected.' },
                'reloadList',
                'emitChanged',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setActionError', params: errorOf }, 'clearAction'],
            },
          },
        },
        sendingLink: {
          description:
            'Sends a one-time sign-in link; the list is unchanged, so it is not reloaded.',
          tags: 'busy',
          invoke: {
            id: 'sendMagicLink',
            src: 'sendMagicLink',
            input: byId,
            onDone: {
              target: 'idle',
              actions: [
                'clearAction',
                {
                  type: 'setNotice',
                  params: 'Sign-in link sent. It works once, within 10 minutes.',
                },
                'emitChanged',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setActionError', params: errorOf }, 'clearAction'],
            },
          },
        },
        confirmingTemporaryPassword: {
          description: 'Asks before replacing their password: their sessions end.',
          on: {
            'temporaryPassword.confirm': 'generatingPassword',
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        generatingPassword: {
          tags: 'busy',
          invoke: {
            id: 'temporaryPassword',
            src: 'temporaryPassword',
            input: byId,
            onDone: {
              target: 'showingPassword',
              actions: [
                { type: 'keepTemporary', params: ({ event }) => event.output },
                'emitChanged',
              ],
            },
            onError: {
              target: 'confirmingTemporaryPassword',
              actions: { type: 'setActionError', params: errorOf },
            },
          },
        },
        showingPassword: {
          description: 'The temporary password, shown this once; closing forgets it.',
          on: { 'dialog.close': { target: 'idle', actions: 'clearAction' } },
        },
      },
    },
  },
})
