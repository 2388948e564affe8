import { describe, expect, test } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { TOAST_DURATION_MS } from '../../machines/constants.ts'
import { type ToastMachineInput, toastMachine } from '../../machines/toaster/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

function start(input: ToastMachineInput = { id: 'toast-1', duration: TOAST_DURATION_MS }) {
  const clock = new SimulatedClock()
  const actor = createActor(toastMachine, { input, clock })
  actor.start()
  return { actor, clock, state: () => actor.getSnapshot().value }
}

describe('toastMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(toastMachine, {
      inputs: [
        { id: 'toast-1', duration: TOAST_DURATION_MS },
        { id: 'toast-1', duration: null },
      ],
      events: [
        { type: 'reveal' },
        { type: 'pause' },
        { type: 'resume' },
        { type: 'dismiss' },
        { type: 'update', duration: 1_000 },
        { type: 'update', duration: null },
      ],
      assertState: (snapshot, { clock }) => {
        // a timed-out toast left exactly when its duration ran out
        if (snapshot.status === 'done' && clock.now() > 0) {
          expect([TOAST_DURATION_MS, 1_000]).toContain(clock.now())
        }
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('a toast disappears 4 s after it becomes visible and not 1 ms before', () => {
    const { actor, clock, state } = start()
    actor.send({ type: 'reveal' })
    clock.increment(TOAST_DURATION_MS - 1)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
    expect(actor.getSnapshot().status).toBe('done')
    expect(actor.getSnapshot().output).toEqual({ id: 'toast-1' })
  })

  test('a queued toast never times out: its timer starts only when it is revealed', () => {
    const { actor, clock, state } = start()
    clock.increment(10 * TOAST_DURATION_MS)
    expect(state()).toBe('queued')
    actor.send({ type: 'reveal' })
    clock.increment(TOAST_DURATION_MS - 1)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
  })

  test('hovering pauses the timer; leaving restarts the full duration', () => {
    const { actor, clock, state } = start()
    actor.send({ type: 'reveal' })
    clock.increment(3_000)
    actor.send({ type: 'pause' })
    clock.increment(60_000)
    expect(state()).toBe('paused')
    actor.send({ type: 'resume' })
    clock.increment(TOAST_DURATION_MS - 1)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
  })

  test('a toast with duration null stays until dismissed', () => {
    const { actor, clock, state } = start({ id: 'toast-1', duration: null })
    actor.send({ type: 'reveal' })
    clock.increment(24 * 60 * 60 * 1_000)
    expect(state()).toEqual({ visible: 'pinned' })
    actor.send({ type: 'dismiss' })
    expect(state()).toBe('dismissed')
  })

  test('a custom duration is honoured to the millisecond', () => {
    const { actor, clock, state } = start({ id: 'toast-1', duration: 10_000 })
    actor.send({ type: 'reveal' })
    clock.increment(9_999)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
  })

  test('an update restarts the timer with the new duration', () => {
    const { actor, clock, state } = start()
    actor.send({ type: 'reveal' })
    clock.increment(3_000)
    actor.send({ type: 'update', duration: 2_000 })
    clock.increment(1_999)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
  })

  test('an update to null while visible pins the toast', () => {
    const { actor, clock, state } = start()
    actor.send({ type: 'reveal' })
    actor.send({ type: 'update', duration: null })
    clock.increment(10 * TOAST_DURATION_MS)
    expect(state()).toEqual({ visible: 'pinned' })
  })

  test('an update while queued applies when the toast shows', () => {
    const { actor, clock, state } = start()
    actor.send({ type: 'update', duration: 500 })
    expect(state()).toBe('queued')
    actor.send({ type: 'reveal' })
    clock.increment(499)
    expect(state()).toEqual({ visible: 'counting' })
    clock.increment(1)
    expect(state()).toBe('dismissed')
  })

  test('dismiss finishes the toast from any state', () => {
    for (const prepare of [[], ['reveal'], ['reveal', 'pause']] as const) {
      const { actor } = start()
      for (const type of prepare) actor.send({ type })
      actor.send({ type: 'dismiss' })
      expect(actor.getSnapshot().status).toBe('done')
    }
  })
})
