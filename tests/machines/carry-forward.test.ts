import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { CarryForwardResponse, PreviousMatch } from '../../contract/questionnaires.ts'
import * as view from '../../machines/carry-forward/index.ts'
import {
  carryForwardMachine,
  carryForwardView,
  offeredMatch,
} from '../../machines/carry-forward/index.ts'
import { CARRIED, previousMatchOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const matchOf = previousMatchOf
const RESULT = CARRIED
const pending = pendingActors(carryForwardMachine)
const id = 'xstate.%s.actor.0.carryForward.%s'
const result = (kind: 'done' | 'error', state: string, payload: object) => ({
  type: id.replace('%s', kind).replace('%s', state),
  ...payload,
})
const events: AnyEventObject[] = [
  { type: 'check', carried: false },
  { type: 'check', carried: true },
  { type: 'accept' },
  { type: 'dismiss' },
  { type: 'retry' },
  result('done', 'looking', { output: [matchOf()] }),
  result('done', 'looking', { output: [matchOf({ same_template: false, score: 0.3 })] }),
  result('error', 'looking', { error: new Error('offline') }),
  result('done', 'carrying', { output: RESULT }),
  result('error', 'carrying', { error: new Error('Questionnaire not found') }),
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('carryForwardMachine', () => {
  testEveryPath(pending, events, {
    view,
    // only the failed state shows its error; dismissing a failure keeps it in the context, hidden
    assertState: (s) => {
      if (s.matches('failed')) expect(view.carryForwardView.error(s)).toEqual(expect.any(String))
      else expect(view.carryForwardView.error(s)).toBeNull()
    },
    input: { id: 7 },
    identity: (s) => [s.context.match?.questionnaire_id ?? null, Boolean(s.context.error)],
  })

  test('offers the best match of the same template, never a different one', () => {
    expect(offeredMatch([])).toBeNull()
    expect(offeredMatch([matchOf({ same_template: false, score: 0.4 })])).toBeNull()
    expect(
      offeredMatch([
        matchOf({ questionnaire_id: 1, score: 0.8 }),
        matchOf({ questionnaire_id: 2, score: 0.95, same_template: false }),
        matchOf({ questionnaire_id: 4, score: 0.9 }),
      ])?.questionnaire_id,
    ).toBe(4)
  })

  test('carries the earlier answers forward, announces the result and shows it until dismissed', async () => {
    const carried: { id: number; fromId: number }[] = []
    const actor = createActor(
      carryForwardMachine.provide({
        actors: {
          loadPrevious: fromPromise<PreviousMatch[], { id: number }>(async () => [matchOf()]),
          carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
            async ({ input }) => {
              carried.push(input)
              return RESULT
            },
          ),
        },
      }),
      { input: { id: 7 } },
    ).start()
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    expect(carryForwardView.shown(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'check', carried: false })
    await settle()
    expect(carryForwardView.shown(actor.getSnapshot())).toBe(true)
    expect(carryForwardView.match(actor.getSnapshot())?.name).toBe('Vendor assessment 2025.xlsx')
    actor.send({ type: 'accept' })
    expect(carryForwardView.busy(actor.getSnapshot())).toBe(true)
    await settle()
    expect(carried).toEqual([{ id: 7, fromId: 3 }])
    expect(carryForwardView.result(actor.getSnapshot())).toEqual(RESULT)
    expect(emitted).toEqual([{ type: 'carried', result: RESULT }])
    actor.send({ type: 'dismiss' })
    expect(carryForwardView.shown(actor.getSnapshot())).toBe(false)
  })

  test('offers nothing once the questionnaire was started from another', async () => {
    const asked: number[] = []
    const actor = createActor(
      carryForwardMachine.provide({
        actors: {
          loadPrevious: fromPromise<PreviousMatch[], { id: number }>(async ({ input }) => {
            asked.push(input.id)
            return [matchOf()]
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    actor.send({ type: 'check', carried: true })
    await settle()
    expect(asked).toEqual([])
    expect(actor.getSnapshot().value).toBe('none')
  })

  test('keeps the offer with the error in plain words when carrying fails, and retries', async () => {
    let calls = 0
    const actor = createActor(
      carryForwardMachine.provide({
        actors: {
          loadPrevious: fromPromise<PreviousMatch[], { id: number }>(async () => [matchOf()]),
          carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
            async () => {
              calls += 1
              if (calls === 1) throw new Error('Questionnaire not found')
              return RESULT
            },
          ),
        },
      }),
      { input: { id: 7 } },
    ).start()
    actor.send({ type: 'check', carried: false })
    await settle()
    actor.send({ type: 'accept' })
    await settle()
    expect(carryForwardView.error(actor.getSnapshot())).toBe('Questionnaire not found')
    expect(carryForwardView.shown(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'retry' })
    await settle()
    expect(carryForwardView.result(actor.getSnapshot())?.carried).toBe(33)
  })
})
