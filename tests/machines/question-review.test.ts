import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { COLLABORATION_TEXTS, type ReviewActionRequest } from '../../contract/collaboration.ts'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import * as view from '../../machines/question-review/index.ts'
import { questionReviewMachine } from '../../machines/question-review/index.ts'
import { changeOf, rowOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

type Input = { questionId: number; request: ReviewActionRequest }
const pending = pendingActors(questionReviewMachine)
const at = (kind: 'done' | 'error', state: string) =>
  `xstate.${kind}.actor.0.questionReview.${state}`
const events: AnyEventObject[] = [
  { type: 'ready' },
  { type: 'changes.open' },
  { type: 'comment.change', comment: 'Name the key service.' },
  { type: 'comment.change', comment: '' },
  { type: 'changes.submit' },
  { type: 'cancel' },
  { type: at('done', 'marking'), output: changeOf([rowOf(1)]) },
  {
    type: at('error', 'marking'),
    error: new Error('Only an answered question can be marked ready for review.'),
  },
  { type: at('done', 'sending'), output: changeOf([rowOf(1)]) },
  { type: at('error', 'sending'), error: new Error('offline') },
]

describe('questionReviewMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { questionId: 1 },
    identity: (s) => [s.context.comment !== '', Boolean(s.context.error)],
  })

  test('sends changes back only with a comment, and hands the server’s row over', async () => {
    const sent: Input[] = []
    const actor = createActor(
      questionReviewMachine.provide({
        actors: {
          review: fromPromise<AnswerChange, Input>(async ({ input }) => {
            sent.push(input)
            return changeOf([rowOf(1)])
          }),
        },
      }),
      { input: { questionId: 1 } },
    ).start()
    const changed: AnswerChange[] = []
    actor.on('changed', (event) => changed.push(event.change))
    actor.send({ type: 'changes.open' })
    actor.send({ type: 'changes.submit' })
    expect(actor.getSnapshot().context.error).toBe(COLLABORATION_TEXTS.changesNeedComment)
    actor.send({ type: 'comment.change', comment: '  Name the key service. ' })
    actor.send({ type: 'changes.submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual([
      { questionId: 1, request: { action: 'request_changes', comment: 'Name the key service.' } },
    ])
    expect(changed).toHaveLength(1)
    expect(actor.getSnapshot().value).toBe('idle')
  })
})
