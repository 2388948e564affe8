import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Activity } from '../../contract/collaboration.ts'
import * as view from '../../machines/questionnaire-activity/index.ts'
import { questionnaireActivityMachine } from '../../machines/questionnaire-activity/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const entry: Activity = {
  id: 1,
  kind: 'assigned',
  summary: 'Assigned 2 questions to Cora Keel',
  by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  question_id: null,
  created_at: '2026-11-27T10:00:00Z',
}
const pending = pendingActors(questionnaireActivityMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.questionnaireActivity.loading`
const events: AnyEventObject[] = [
  { type: 'load' },
  { type: at('done'), output: [entry] },
  { type: at('error'), error: new Error('offline') },
]

describe('questionnaireActivityMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { id: 7 },
    identity: (s) => [Boolean(s.context.error)],
  })

  test('reads the activity of its questionnaire when asked, and again', async () => {
    const asked: number[] = []
    const actor = createActor(
      questionnaireActivityMachine.provide({
        actors: {
          loadActivity: fromPromise<Activity[], { id: number }>(async ({ input }) => {
            asked.push(input.id)
            return [entry]
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    expect(asked).toEqual([])
    actor.send({ type: 'load' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.entries).toEqual([entry])
    actor.send({ type: 'load' })
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toEqual([7, 7])
  })
})
