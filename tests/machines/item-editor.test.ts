import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { QaItem } from '../../contract/knowledge.ts'
import * as view from '../../machines/item-editor/index.ts'
import { itemEditorMachine, type SaveItemInput } from '../../machines/item-editor/index.ts'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(itemEditorMachine)
const qa = {
  id: 3,
  question: 'Is MFA on?',
  answer: 'Yes',
  dropdown_value: 'Yes',
  tags: ['iam'],
  source: null,
} as QaItem
const events: AnyEventObject[] = [
  { type: 'create', mode: 'qa' },
  { type: 'create', mode: 'data' },
  { type: 'edit', mode: 'qa', item: qa },
  { type: 'change', field: 'question', value: 'Do you encrypt backups?' },
  { type: 'change', field: 'answer', value: 'Yes' },
  { type: 'cycle.own', own: true, days: 365 },
  { type: 'cycle.own', own: false },
  { type: 'submit' },
  { type: 'close' },
  { type: 'delete.request', mode: 'qa', id: 3 },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'xstate.done.actor.0.itemEditor.saving', output: undefined },
  { type: 'xstate.error.actor.0.itemEditor.saving', error: new Error('Item not found') },
  { type: 'xstate.done.actor.0.itemEditor.deleting', output: undefined },
  { type: 'xstate.error.actor.0.itemEditor.deleting', error: new Error('Item not found') },
]

/** The editor with its saves recorded (and answered at once). */
function startSaving() {
  const saved: SaveItemInput[] = []
  const actor = createActor(
    itemEditorMachine.provide({
      actors: {
        saveItem: fromPromise<void, SaveItemInput>(async ({ input }) => void saved.push(input)),
      },
    }),
  ).start()
  return { actor, saved }
}

describe('itemEditorMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [
      s.context.mode,
      s.context.id,
      Boolean(s.context.values.question),
      Boolean(s.context.values.answer),
      s.context.ownCycle,
      Object.keys(s.context.errors).length > 0,
      Boolean(s.context.failure),
    ],
  })

  test('shows the contract’s words for empty fields and sends a clean payload', async () => {
    const { actor, saved } = startSaving()
    actor.send({ type: 'create', mode: 'qa' })
    actor.send({ type: 'submit' })
    expect(actor.getSnapshot().context.errors).toMatchObject({
      question: 'Enter a question',
      answer: 'Enter an answer',
    })
    actor.send({ type: 'change', field: 'question', value: ' Do you encrypt backups? ' })
    actor.send({ type: 'change', field: 'answer', value: 'Yes, AES-256.' })
    actor.send({ type: 'change', field: 'tags', value: 'backup, , crypto' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saved[0]).toEqual({
      mode: 'qa',
      id: null,
      body: {
        question: ' Do you encrypt backups? ',
        answer: 'Yes, AES-256.',
        dropdown_value: null,
        tags: ['backup', 'crypto'],
        source: null,
        owner_id: null,
        review_cycle_days: null,
        product_id: null,
      },
    })
    expect(actor.getSnapshot().value).toBe('closed')
  })

  test('a Q&A item’s owner and own review cycle: sent when set, the owner only when it changed', async () => {
    const { actor, saved } = startSaving()
    const item = qaItemOf({
      id: 9,
      owner_id: 4,
      owner: { id: '4', name: 'Bea Ng', email: 'bea@example.com' },
    })
    actor.send({ type: 'edit', mode: 'qa', item })
    expect(actor.getSnapshot().context.owner).toEqual({ id: 4, name: 'Bea Ng' })
    expect(actor.getSnapshot().context.values.owner_id).toBe('4')
    // its own cycle starts from the organisation's; a cycle of 0 days is refused in the contract's words
    actor.send({ type: 'cycle.own', own: true, days: 365 })
    expect(actor.getSnapshot().context.values.review_cycle_days).toBe('365')
    actor.send({ type: 'change', field: 'review_cycle_days', value: '0' })
    actor.send({ type: 'submit' })
    expect(actor.getSnapshot().context.errors.review_cycle_days).toBe(
      'The review cycle is at least 1 day',
    )
    actor.send({ type: 'change', field: 'review_cycle_days', value: '90' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saved[0]?.body).not.toHaveProperty('owner_id')
    expect(saved[0]?.body).toMatchObject({ review_cycle_days: 90 })

    actor.send({ type: 'edit', mode: 'qa', item: { ...item, review_cycle_inherited: false } })
    expect(actor.getSnapshot().context.ownCycle).toBe(true)
    actor.send({ type: 'change', field: 'owner_id', value: '' })
    actor.send({ type: 'cycle.own', own: false })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saved[1]?.body).toMatchObject({ owner_id: null, review_cycle_days: null })
  })

  test('a Q&A item’s product (issue 38): read from the item, changed, and sent; none is all products', async () => {
    const { actor, saved } = startSaving()
    actor.send({ type: 'edit', mode: 'qa', item: qaItemOf({ id: 9, product_id: 3 }) })
    expect(actor.getSnapshot().context.values.product_id).toBe('3')
    actor.send({ type: 'change', field: 'product_id', value: '4' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saved[0]?.body).toMatchObject({ product_id: 4 })
    actor.send({ type: 'edit', mode: 'qa', item: qaItemOf({ id: 9, product_id: 4 }) })
    actor.send({ type: 'change', field: 'product_id', value: '' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saved[1]?.body).toMatchObject({ product_id: null })
  })
})
