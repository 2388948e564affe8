import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Role } from '../../contract/roles.ts'
import type { AdminUser, TemporaryPassword } from '../../contract/users.ts'
import * as people from '../../machines/people/index.ts'
import {
  type InviteForm,
  type PeopleQuery,
  peopleMachine,
  peopleView,
} from '../../machines/people/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const ada: AdminUser = {
  id: 7,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  role: 'contributor',
  status: 'active',
  last_login_at: null,
  created_at: '2026-11-26T00:00:00.000Z',
}
const temporary: TemporaryPassword = {
  temporary_password: 'Abc23456defGHJ78',
  expires_at: '2026-11-27T00:00:00.000Z',
}

const pending = pendingActors(peopleMachine)

const failure = new Error('offline')
const events: AnyEventObject[] = [
  { type: 'search.change', q: 'ada' },
  { type: 'filter.change', role: 'viewer', status: '' },
  { type: 'page.change', page: 2 },
  { type: 'refresh' },
  { type: 'invite.open' },
  { type: 'invite.edit', change: { email: 'grace@example.com' } },
  { type: 'invite.submit' },
  { type: 'role.change', id: 7, role: 'approver' },
  { type: 'remove.ask', id: 7 },
  { type: 'remove.confirm' },
  { type: 'join.approve', id: 7 },
  { type: 'join.reject', id: 7 },
  { type: 'magicLink.send', id: 7 },
  { type: 'temporaryPassword.ask', id: 7 },
  { type: 'temporaryPassword.confirm' },
  { type: 'dialog.close' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadPeople', output: { count: 1, results: [ada] } },
  { type: 'xstate.error.actor.loadPeople', error: failure },
  { type: 'xstate.done.actor.invite', output: { ...ada, email: 'grace@example.com' } },
  { type: 'xstate.error.actor.invite', error: failure },
  { type: 'xstate.done.actor.changeRole', output: { ...ada, role: 'approver' } },
  { type: 'xstate.error.actor.changeRole', error: failure },
  { type: 'xstate.done.actor.removePerson' },
  { type: 'xstate.error.actor.removePerson', error: failure },
  { type: 'xstate.done.actor.approvePerson' },
  { type: 'xstate.error.actor.approvePerson', error: failure },
  { type: 'xstate.done.actor.rejectPerson' },
  { type: 'xstate.error.actor.rejectPerson', error: failure },
  { type: 'xstate.done.actor.sendMagicLink' },
  { type: 'xstate.error.actor.sendMagicLink', error: failure },
  { type: 'xstate.done.actor.temporaryPassword', output: temporary },
  { type: 'xstate.error.actor.temporaryPassword', error: failure },
]

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function start(overrides: Partial<Parameters<typeof peopleMachine.provide>[0]['actors']> = {}) {
  const calls: { actor: string; input: unknown }[] = []
  const record =
    <I, T>(actor: string, output: T) =>
    async ({ input }: { input: I }) => {
      calls.push({ actor, input })
      return output
    }
  const actor = createActor(
    peopleMachine.provide({
      actors: {
        loadPeople: fromPromise(
          record<PeopleQuery, { count: number; results: AdminUser[] }>('loadPeople', {
            count: 1,
            results: [ada],
          }),
        ),
        invite: fromPromise(
          record<InviteForm, AdminUser>('invite', { ...ada, id: 8, email: 'grace@example.com' }),
        ),
        changeRole: fromPromise(
          record<{ id: number; role: Role }, AdminUser>('changeRole', { ...ada, role: 'approver' }),
        ),
        removePerson: fromPromise(record<{ id: number }, void>('removePerson', undefined)),
        approvePerson: fromPromise(record<{ id: number }, void>('approvePerson', undefined)),
        rejectPerson: fromPromise(record<{ id: number }, void>('rejectPerson', undefined)),
        sendMagicLink: fromPromise(record<{ id: number }, void>('sendMagicLink', undefined)),
        temporaryPassword: fromPromise(
          record<{ id: number }, TemporaryPassword>('temporaryPassword', temporary),
        ),
        ...overrides,
      },
    }),
  ).start()
  const view = () => {
    const snapshot = actor.getSnapshot()
    return Object.fromEntries(
      Object.entries(peopleView).map(([key, select]) => [key, select(snapshot)]),
    ) as { [K in keyof typeof peopleView]: ReturnType<(typeof peopleView)[K]> }
  }
  return { actor, calls, view }
}

describe('peopleMachine', () => {
  testEveryPath(pending, events, {
    view: people,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(people.peopleView.loading(s)).toBe(
        s.hasTag('loading') && people.peopleView.people(s).length === 0,
      )
    },
    // the state value tells the screens apart; context only by a held password and an address
    identity: (s) => [Boolean(s.context.temporary), s.context.invite.email !== ''],
  })

  test('invites, then says so and reloads the list', async () => {
    const { actor, calls, view } = start()
    await settle()
    actor.send({ type: 'invite.open' })
    actor.send({ type: 'invite.submit' })
    expect(view().actionError).toBe('Please enter a valid email address')
    actor.send({ type: 'invite.edit', change: { email: 'grace@example.com', role: 'approver' } })
    actor.send({ type: 'invite.submit' })
    await settle()
    expect(calls.filter((c) => c.actor === 'invite').map((c) => c.input)).toEqual([
      { email: 'grace@example.com', first_name: '', last_name: '', role: 'approver' },
    ])
    expect(view().inviting).toBe(false)
    expect(view().notice).toBe('Invitation sent to grace@example.com.')
    expect(calls.filter((c) => c.actor === 'loadPeople')).toHaveLength(2)
  })

  test('removes only after a confirmation; a refusal keeps the dialog with its reason', async () => {
    const lastAdmin = new Error('This is the organisation’s last admin.')
    const { actor, calls, view } = start({
      removePerson: fromPromise<void, { id: number }>(() => Promise.reject(lastAdmin)),
    })
    await settle()
    actor.send({ type: 'remove.ask', id: 7 })
    expect(view().confirmingRemoval).toBe(true)
    expect(view().target?.email).toBe('ada@example.com')
    expect(calls.some((c) => c.actor === 'removePerson')).toBe(false)
    actor.send({ type: 'remove.confirm' })
    await settle()
    expect(view().confirmingRemoval).toBe(true)
    expect(view().actionError).toBe('This is the organisation’s last admin.')
    actor.send({ type: 'dialog.close' })
    expect(view().confirmingRemoval).toBe(false)
  })

  test('shows a temporary password once: closing forgets it', async () => {
    const { actor, view } = start()
    await settle()
    actor.send({ type: 'temporaryPassword.ask', id: 7 })
    actor.send({ type: 'temporaryPassword.confirm' })
    await settle()
    expect(view().temporary).toEqual(temporary)
    actor.send({ type: 'dialog.close' })
    expect(view().temporary).toBeNull()
    expect(actor.getSnapshot().context.temporary).toBeNull()
  })

  test('filters and searches: a filter loads at once, typing waits for a pause', async () => {
    const { actor, calls } = start()
    await settle()
    actor.send({ type: 'filter.change', role: 'viewer', status: 'invited' })
    await settle()
    const loads = calls.filter((c) => c.actor === 'loadPeople').map((c) => c.input)
    expect(loads.at(-1)).toMatchObject({ role: 'viewer', status: 'invited', page: 1 })
    actor.send({ type: 'search.change', q: 'ad' })
    await settle()
    expect(calls.filter((c) => c.actor === 'loadPeople')).toHaveLength(2)
    expect(actor.getSnapshot().matches({ list: 'typing' })).toBe(true)
  })
})
