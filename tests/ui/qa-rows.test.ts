import { describe, expect, it } from 'vitest'
import { qaRow } from '../../machines/library-review/index.ts'
import { qaItemOf } from '../fixtures/qa-items.ts'

/** Issue 43: a Q&A item's row comes ready from the library-review view, not decided in JSX. */
describe('a Q&A item’s row', () => {
  const idle = { busyId: null, failedId: null, error: null }

  it('offers confirmation to its owner and to those who manage the library', () => {
    const item = qaItemOf({ id: 4, owner_id: 7 })
    expect(qaRow(item, { user: { id: 7, role: 'contributor' }, review: idle }).canReview).toBe(true)
    expect(qaRow(item, { user: { id: 8, role: 'contributor' }, review: idle }).canReview).toBe(
      false,
    )
    expect(qaRow(item, { user: { id: 8, role: 'admin' }, review: idle }).canReview).toBe(true)
    // before the profile is read every row offers it; the server decides
    expect(qaRow(item, { user: null, review: idle }).canReview).toBe(true)
  })

  it('shows its own confirmation running or failed, not another row’s', () => {
    const item = qaItemOf({ id: 4 })
    expect(
      qaRow(item, { user: null, review: { busyId: 4, failedId: null, error: null } }).reviewing,
    ).toBe(true)
    expect(
      qaRow(item, { user: null, review: { busyId: 5, failedId: 4, error: 'Gone' } }),
    ).toMatchObject({ reviewing: false, error: 'Gone' })
    expect(
      qaRow(item, { user: null, review: { busyId: null, failedId: 5, error: 'Gone' } }).error,
    ).toBe(null)
  })

  it('says whether it fell stale or when to review it, and who owns and reviewed it', () => {
    expect(qaRow(qaItemOf({ freshness: 'stale' }), { user: null, review: idle }).dueLead).toBe(
      'Stale since',
    )
    expect(qaRow(qaItemOf({ freshness: 'fresh' }), { user: null, review: idle }).dueLead).toBe(
      'Review by',
    )
    const owned = qaItemOf({
      owner: { id: '7', name: 'Ada Lovelace', email: 'ada@example.com' },
      reviewed_by: { id: '8', name: 'Grace Hopper', email: 'grace@example.com' },
    })
    expect(qaRow(owned, { user: null, review: idle })).toMatchObject({
      ownerName: 'Ada Lovelace',
      reviewedBy: ' by Grace Hopper',
    })
    expect(qaRow(qaItemOf({ owner: null }), { user: null, review: idle }).ownerName).toBe(null)
  })
})
