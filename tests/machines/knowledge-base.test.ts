import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/knowledge-base/index.ts'
import {
  knowledgeBaseMachine as counted,
  emptyOf,
  type KnowledgeCounts,
  selectCounts,
} from '../../machines/knowledge-base/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const COUNTS: KnowledgeCounts = { qa: 0, data: 2, answered: 229 }
const knowledgeBaseMachine = counted.provide({
  actors: { loadCounts: fromPromise<KnowledgeCounts, void>(async () => COUNTS) },
})
const pending = pendingActors(counted)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.knowledgeBase.counting`

const events: AnyEventObject[] = [
  { type: 'tab.select', tab: 'data' },
  { type: 'tab.select', tab: 'files' },
  { type: 'tab.select', tab: 'review' },
  { type: 'changed' },
  { type: 'freshness.open', freshness: 'stale' },
  { type: at('done'), output: COUNTS },
  { type: at('error'), error: new Error('Offline') },
]

describe('knowledgeBaseMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [s.context.tab, s.context.version > 0, s.context.freshness, s.context.counts],
  })

  test('counts what the knowledge base holds, and again after a change', async () => {
    let answered = 0
    const actor = createActor(
      counted.provide({
        actors: {
          loadCounts: fromPromise<KnowledgeCounts, void>(async () => ({
            qa: 0,
            data: 0,
            answered: answered++,
          })),
        },
      }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(selectCounts(actor.getSnapshot())).toEqual({ qa: 0, data: 0, answered: 0 })
    actor.send({ type: 'changed' })
    await new Promise((r) => setTimeout(r, 0))
    expect(selectCounts(actor.getSnapshot())?.answered).toBe(1)
  })

  test('empty states say what exists: no "import a questionnaire" above the rows of one', () => {
    expect(emptyOf({ qa: 0, data: 0, answered: 229 })).toEqual({
      qa: expect.objectContaining({ title: 'No Q&A items of your own yet' }),
      answered: 'list',
    })
    expect(emptyOf({ qa: 0, data: 0, answered: 229 }).qa?.text).toContain('229 rows')
    expect(emptyOf({ qa: 0, data: 0, answered: 0 })).toEqual({
      qa: expect.objectContaining({ title: 'No answers yet' }),
      answered: 'none',
    })
    expect(emptyOf({ qa: 3, data: 0, answered: 0 })).toEqual({ qa: undefined, answered: 'hint' })
    expect(emptyOf(null)).toEqual({ qa: undefined, answered: 'list' })
  })

  test('opens on Q&A, switches sections and counts changes', () => {
    const actor = createActor(knowledgeBaseMachine).start()
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'qa', version: 0, freshness: null })
    actor.send({ type: 'tab.select', tab: 'files' })
    actor.send({ type: 'changed' })
    actor.send({ type: 'changed' })
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'files', version: 2, freshness: null })
  })

  test('a health count opens the Q&A list filtered by its freshness, anew', () => {
    const actor = createActor(knowledgeBaseMachine).start()
    actor.send({ type: 'tab.select', tab: 'data' })
    actor.send({ type: 'freshness.open', freshness: 'due' })
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'qa', version: 1, freshness: 'due' })
    actor.send({ type: 'tab.select', tab: 'qa' })
    expect(actor.getSnapshot().context.freshness).toBeNull()
  })
})
