import { describe, expect, test } from 'vitest'
import { createActor, type EventFrom } from 'xstate'
import { knowledgeBaseMachine } from '../../machines/knowledge-base/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

const events: EventFrom<typeof knowledgeBaseMachine>[] = [
  { type: 'tab.select', tab: 'data' },
  { type: 'tab.select', tab: 'files' },
  { type: 'tab.select', tab: 'review' },
  { type: 'changed' },
  { type: 'freshness.open', freshness: 'stale' },
]

describe('knowledgeBaseMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(knowledgeBaseMachine, {
      events,
      serializeState: (s) =>
        JSON.stringify([s.value, s.context.tab, s.context.version > 0, s.context.freshness]),
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('opens on Q&A, switches sections and counts changes', () => {
    const actor = createActor(knowledgeBaseMachine).start()
    expect(actor.getSnapshot().context).toEqual({ tab: 'qa', version: 0, freshness: null })
    actor.send({ type: 'tab.select', tab: 'files' })
    actor.send({ type: 'changed' })
    actor.send({ type: 'changed' })
    expect(actor.getSnapshot().context).toEqual({ tab: 'files', version: 2, freshness: null })
  })

  test('a health count opens the Q&A list filtered by its freshness, anew', () => {
    const actor = createActor(knowledgeBaseMachine).start()
    actor.send({ type: 'tab.select', tab: 'data' })
    actor.send({ type: 'freshness.open', freshness: 'due' })
    expect(actor.getSnapshot().context).toEqual({ tab: 'qa', version: 1, freshness: 'due' })
    actor.send({ type: 'tab.select', tab: 'qa' })
    expect(actor.getSnapshot().context.freshness).toBeNull()
  })
})
