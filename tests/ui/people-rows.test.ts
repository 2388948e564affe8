import { describe, expect, it } from 'vitest'
import type { AdminUser } from '../../contract/users.ts'
import { personName, personRow } from '../../machines/people/index.ts'

/** Issue 43: the people list's rows come ready from the machine's view, not decided in JSX. */
const person = (over: Partial<AdminUser>): AdminUser =>
  ({
    id: 2,
    email: 'ana@example.com',
    first_name: 'Ana',
    last_name: 'Admin',
    role: 'approver',
    status: 'active',
    last_login_at: null,
    ...over,
  }) as AdminUser

describe('a person’s row', () => {
  it('offers sign-in help for others who are active, removal to anyone listed', () => {
    expect(personRow(person({}), { selfId: 1, busy: false })).toEqual({
      name: 'Ana Admin',
      you: false,
      roleDisabled: false,
      awaitingApproval: false,
      menu: { signInHelp: true, remove: true },
    })
    expect(personRow(person({}), { selfId: 2, busy: false }).menu).toEqual({
      signInHelp: false,
      remove: true,
    })
    expect(personRow(person({ status: 'invited' }), { selfId: 1, busy: false }).menu).toEqual({
      signInHelp: false,
      remove: true,
    })
  })

  it('has no menu for someone removed or awaiting approval, and no role change while busy', () => {
    expect(personRow(person({ status: 'removed' }), { selfId: 1, busy: false })).toMatchObject({
      roleDisabled: true,
      menu: null,
    })
    expect(personRow(person({ status: 'pending' }), { selfId: 1, busy: true })).toMatchObject({
      roleDisabled: true,
      awaitingApproval: true,
      menu: null,
    })
    expect(personName(person({ first_name: '', last_name: '' }))).toBe('ana@example.com')
  })
})
