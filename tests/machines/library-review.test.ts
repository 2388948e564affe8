import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { QaItem } from '../../contract/knowledge.ts'
import * as view from '../../machines/library-review/index.ts'
import {
  canReview,
  libraryReviewMachine,
  libraryReviewView,
} from '../../machines/library-review/index.ts'
import { ApiError } from '../../src/api/client.ts'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const stale = qaItemOf({ id: 4, daysAgo: 400, owner_id: 7 })
const due = qaItemOf({ id: 5, daysAgo: 350, owner_id: 7 })
const pending = pendingActors(libraryReviewMachine)
const events: AnyEventObject[] = [
  { type: 'confirm', item: stale },
  { type: 'confirm', item: due },
  { type: 'dismiss' },
  { type: 'xstate.done.actor.0.libraryReview.confirming', output: qaItemOf({ id: 4 }) },
  { type: 'xstate.error.actor.0.libraryReview.confirming', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('libraryReviewMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [s.context.item?.id ?? null, Boolean(s.context.error)],
  })

  test('confirms an answer: busy on its row, then announces it reviewed as the server returns it', async () => {
    const asked: number[] = []
    const actor = createActor(
      libraryReviewMachine.provide({
        actors: {
          markReviewed: fromPromise<QaItem, { id: number }>(async ({ input }) => {
            asked.push(input.id)
            return qaItemOf({ id: input.id, daysAgo: 0 })
          }),
        },
      }),
    ).start()
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    actor.send({ type: 'confirm', item: stale })
    expect(libraryReviewView.busyId(actor.getSnapshot())).toBe(4)
    // a second confirmation waits for the first
    actor.send({ type: 'confirm', item: due })
    await settle()
    expect(asked).toEqual([4])
    expect(actor.getSnapshot().value).toBe('confirmed')
    expect(libraryReviewView.busyId(actor.getSnapshot())).toBeNull()
    expect(emitted).toEqual([
      { type: 'reviewed', item: expect.objectContaining({ id: 4, freshness: 'fresh' }) },
    ])
  })

  test('says in plain words why it was refused, on that row, until dismissed', async () => {
    const refusal =
      'Only the answer’s owner or someone who manages the library can mark it reviewed'
    const actor = createActor(
      libraryReviewMachine.provide({
        actors: {
          markReviewed: fromPromise<QaItem, { id: number }>(async () => {
            throw new ApiError(403, { error: refusal }, refusal)
          }),
        },
      }),
    ).start()
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    actor.send({ type: 'confirm', item: due })
    await settle()
    expect(libraryReviewView.failedId(actor.getSnapshot())).toBe(5)
    expect(libraryReviewView.error(actor.getSnapshot())).toBe(refusal)
    expect(emitted).toEqual([{ type: 'failed', item: due, error: refusal }])
    actor.send({ type: 'dismiss' })
    expect(libraryReviewView.error(actor.getSnapshot())).toBeNull()
  })

  test('offers the review to the owner and to library managers; to all while the role is unknown', () => {
    expect(canReview(due, { id: 7, role: 'contributor' })).toBe(true)
    expect(canReview(due, { id: 8, role: 'contributor' })).toBe(false)
    expect(canReview(due, { id: 8, role: 'approver' })).toBe(true)
    expect(canReview(due, null)).toBe(true)
  })
})
