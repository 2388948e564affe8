import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { QaItem } from '../../contract/knowledge.ts'
import {
  type ItemMode,
  itemEditorMachine,
  type SaveItemInput,
} from '../../machines/item-editor/index.ts'
import { testEveryPath } from './every-path.ts'

const pending = itemEditorMachine.provide({
  actors: {
    saveItem: fromPromise<void, SaveItemInput>(() => new Promise(() => {})),
    deleteItem: fromPromise<void, { mode: ItemMode; id: number }>(() => new Promise(() => {})),
  },
})
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

describe('itemEditorMachine', () => {
  testEveryPath(pending, events, {
    identity: (s) => [
      s.context.mode,
      s.context.id,
      Boolean(s.context.values.question),
      Boolean(s.context.values.answer),
      Object.keys(s.context.errors).length > 0,
      Boolean(s.context.failure),
    ],
  })

  test('shows the contract’s words for empty fields and sends a clean payload', async () => {
    const saved: SaveItemInput[] = []
    const actor = createActor(
      itemEditorMachine.provide({
        actors: {
          saveItem: fromPromise<void, SaveItemInput>(async ({ input }) => void saved.push(input)),
        },
      }),
    ).start()
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
      },
    })
    expect(actor.getSnapshot().value).toBe('closed')
  })
})
