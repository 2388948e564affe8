import { assign, emit, fromPromise, type InputFrom, type OutputFrom, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { Role } from '../../contract/roles.ts'
import type { AdminUser, TemporaryPassword } from '../../contract/users.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { LIST_SEARCH_DEBOUNCE_MS } from '../constants.ts'
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

/** The calls an admin makes about people (every actor but the list's). */
type Call = Exclude<keyof typeof actors, 'loadPeople'>

/** How one call differs from the others; everything else is the same for all of them. */
interface CallPlan<C extends Call> {
  /** What the call is given. */
  input: (args: { context: PeopleContext }) => InputFrom<(typeof actors)[C]>
  /** What a success says, if anything. */
  notice?: string | ((output: OutputFrom<(typeof actors)[C]>) => string)
  /** What of the answer the context keeps (the temporary password). */
  keep?: (output: OutputFrom<(typeof actors)[C]>) => Partial<PeopleContext>
  /** The state that shows what a success returned, keeping the person; else idle, forgetting them. */
  shownIn?: string
  /** A success reloads the list unless `false`. */
  reload?: boolean
  /** A refusal reloads the list too (a refused role shows the old one again). */
  reloadAfterRefusal?: boolean
  /** A refusal goes back to the step that asked, which shows why; else idle, forgetting them. */
  retry?: string
}

/** What most calls are given: the id of the person the action is about. */
const byId = ({ context }: { context: PeopleContext }) => ({ id: context.action?.id ?? 0 })

/**
 * A busy state that runs one call (its invoke and actor share the call's name): a success clears
 * the action, says what it did, reloads the list and tells the page; a refusal keeps the reason.
 */
function callState<C extends Call>(call: C, plan: CallPlan<C>) {
  const { notice, keep, shownIn, reload = true, reloadAfterRefusal, retry } = plan
  type Done = { event: { output: OutputFrom<(typeof actors)[C]> } }
  return {
    tags: 'busy' as const,
    invoke: {
      id: call,
      src: call,
      input: plan.input,
      onDone: {
        target: shownIn ?? '#people.action.idle',
        actions: [
          ...(shownIn ? [] : ['clearAction' as const]),
          ...(keep
            ? [{ type: 'keep' as const, params: ({ event }: Done) => keep(event.output) }]
            : []),
          ...(notice === undefined
            ? []
            : [
                {
                  type: 'setNotice' as const,
                  params: ({ event }: Done) =>
                    typeof notice === 'string' ? notice : notice(event.output),
                },
              ]),
          ...(reload ? ['reloadList' as const] : []),
          'emitChanged' as const,
        ],
      },
      onError: {
        target: retry ?? '#people.action.idle',
        actions: [
          {
            type: 'setActionError' as const,
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
          ...(retry ? [] : ['clearAction' as const]),
          ...(reloadAfterRefusal ? ['reloadList' as const] : []),
        ],
      },
    },
  }
}

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
    setSearch: assign(({ context }, q: string) => ({ query: { ...context.query, q, page: 1 } })),
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
    keep: assign((_, kept: Partial<PeopleContext>) => kept),
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
        'search.change': {
          target: '.typing',
          reenter: true,
          actions: { type: 'setSearch', params: ({ event }) => event.q },
        },
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
              actions: {
                type: 'setListError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
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
            sending: callState('invite', {
              input: ({ context }) => context.invite,
              notice: (person) => `Invitation sent to ${person.email}.`,
              retry: 'editing',
            }),
          },
        },
        changingRole: callState('changeRole', {
          input: ({ context }) => ({
            id: context.action?.id ?? 0,
            role: context.action?.role ?? 'viewer',
          }),
          reloadAfterRefusal: true,
        }),
        confirmingRemoval: {
          description: 'Asks before removing: their sessions end at once.',
          on: {
            'remove.confirm': 'removing',
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        removing: callState('removePerson', {
          input: byId,
          notice: 'Removed. Their sessions have ended.',
          retry: 'confirmingRemoval',
        }),
        approving: callState('approvePerson', {
          input: byId,
          notice: 'Approved. They can sign in now; we emailed them.',
        }),
        rejecting: callState('rejectPerson', { input: byId, notice: 'Request to join rejected.' }),
        sendingLink: callState('sendMagicLink', {
          input: byId,
          notice: 'Sign-in link sent. It works once, within 10 minutes.',
          reload: false,
        }),
        confirmingTemporaryPassword: {
          description: 'Asks before replacing their password: their sessions end.',
          on: {
            'temporaryPassword.confirm': 'generatingPassword',
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        generatingPassword: callState('temporaryPassword', {
          input: byId,
          keep: (temporary) => ({ temporary }),
          shownIn: 'showingPassword',
          reload: false,
          retry: 'confirmingTemporaryPassword',
        }),
        showingPassword: {
          description: 'The temporary password, shown this once; closing forgets it.',
          on: { 'dialog.close': { target: 'idle', actions: 'clearAction' } },
        },
      },
    },
  },
})
