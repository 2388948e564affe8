import { describe, expect, test } from 'vitest'
import { createActor, type EventFrom } from 'xstate'
import { knowledgeBaseMachine } from '../../machines/knowledge-base/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

const events: EventFrom<typeof knowledgeBaseMachine>[] = [
  { type: 'tab.select', tab: 'data' },
  { type: 'tab.select', tab: 'files' },
  { type: 'tab.select', tab: 'review' },
  { type: 'changed' },
]

describe('knowledgeBaseMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(knowledgeBaseMachine, {
      events,
      serializeState: (s) => JSON.stringify([s.value, s.context.tab, s.context.version > 0]),
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('opens on Q&A, switches sections and counts changes', () => {
    const actor = createActor(knowledgeBaseMachine).start()
    expect(actor.getSnapshot().context).toEqual({ tab: 'qa', version: 0 })
    actor.send({ type: 'tab.select', tab: 'files' })
    actor.send({ type: 'changed' })
    actor.send({ type: 'changed' })
    expect(actor.getSnapshot().context).toEqual({ tab: 'files', version: 2 })
  })
})
