import { byId, EMPTY_INVITE, errorOf, peopleSetup } from './people.setup.ts'

/**
 * Settings → People (admins): the organisation's people, searched (after a pause in typing),
 * filtered by role and status, a page at a time; inviting a colleague; changing a role; removing
 * someone after a confirmation; sending a one-time sign-in link; a temporary password shown once.
 * The list and the action run side by side: the list reloads after each change.
 */
export const peopleMachine = peopleSetup.createMachine({
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
      description:
        'The people: searched, filtered, a page at a time; read again after each change.',
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
          description: 'The page of people the search, filters and page ask for is read.',
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
        ready: { description: 'The page of people, with the pager.' },
        failed: { description: 'Says the list could not be loaded; refresh tries again.' },
      },
    },
    action: {
      description: 'What is being done to one person, beside the list.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No dialog open: a row’s menu or Invite starts an action.',
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
              description: 'The form, until it is sent (an email is required).',
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
              description: 'The invitation is sent.',
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
          description: 'The new role is saved.',
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
          description: 'The person is removed; their sessions end.',
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
          description: 'A person awaiting approval is let in.',
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
          description: 'A person awaiting approval is turned away.',
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
          description: 'A temporary password is made, to be shown once.',
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
