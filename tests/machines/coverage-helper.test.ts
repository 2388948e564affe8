import { describe, expect, test } from 'vitest'
import { assign, createMachine, fromPromise, sendParent, setup } from 'xstate'
import {
  MachineCoverageError,
  measureMachineCoverage,
  testMachineCoverage,
} from '../support/machine-coverage.ts'

/** Parallel regions, an initial choice, guards, a named and a numeric delay, a final state. */
const lampMachine = setup({
  types: {} as {
    context: { bright: boolean }
    events: { type: 'flip' } | { type: 'close' }
    input: { bright: boolean }
  },
  guards: { isBright: ({ context }) => context.bright },
  delays: { lockDelay: 500 },
}).createMachine({
  id: 'lamp',
  type: 'parallel',
  context: ({ input }) => ({ bright: input.bright }),
  states: {
    light: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'isBright', target: 'on' }, { target: 'off' }] },
        off: { on: { flip: 'on' } },
        on: { on: { flip: 'off' }, after: { 1000: 'off' } },
      },
    },
    door: {
      initial: 'open',
      states: {
        open: { on: { close: 'closed' } },
        closed: { after: { lockDelay: 'locked' } },
        locked: { type: 'final' },
      },
    },
  },
})

const lampEvents = [{ type: 'flip' }, { type: 'close' }] as const

describe('testMachineCoverage', () => {
  test('passes on a machine whose every state and transition a replayed path reaches', async () => {
    const report = await testMachineCoverage(lampMachine, {
      inputs: [{ bright: true }, { bright: false }],
      events: lampEvents,
    })
    expect(report.complete).toBe(true)
    expect(report.states).toEqual({ total: 8, unreached: [] })
    expect(report.transitions).toEqual({ total: 7, unreached: [] })
    expect(report.failures).toEqual([])
    expect(report.summary).toContain('Coverage: 100%.')
  })

  test('fails, naming them, when a state and its transition cannot be reached', async () => {
    const machine = createMachine({
      id: 'broken',
      initial: 'a',
      states: {
        a: { on: { go: 'b' } },
        b: { on: { back: 'a' } },
        orphan: { on: { go: 'a' } },
      },
    })
    const options = { events: [{ type: 'go' }, { type: 'back' }] }
    const report = await measureMachineCoverage(machine, options)
    expect(report.complete).toBe(false)
    expect(report.states.unreached).toEqual(['broken.orphan'])
    expect(report.transitions.unreached).toEqual(['broken.orphan on go -> broken.a'])

    const failure = testMachineCoverage(machine, options)
    await expect(failure).rejects.toBeInstanceOf(MachineCoverageError)
    await expect(failure).rejects.toThrow(/states: 2\/3 reached; unreached:\n {2}- broken\.orphan/)
  })

  test('fails when a transition is never taken (initial branch, guard, event)', async () => {
    const report = await measureMachineCoverage(lampMachine, {
      input: { bright: true },
      events: [{ type: 'close' }],
    })
    expect(report.complete).toBe(false)
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([
      'lamp.light.choosing always -> lamp.light.off',
      'lamp.light.off on flip -> lamp.light.on',
      'lamp.light.on on flip -> lamp.light.off',
    ])
  })

  test('the default strategy also replays edges back to states already reached', async () => {
    const ring = createMachine({
      id: 'ring',
      initial: 'a',
      states: {
        a: { on: { next: 'b', skip: 'c' } },
        b: { on: { next: 'c' } },
        c: { on: { next: 'a' } },
      },
    })
    const events = [{ type: 'next' }, { type: 'skip' }]
    const unreached = async (strategy: 'shortest' | 'simple' | 'transitions') =>
      (await measureMachineCoverage(ring, { events, strategy })).transitions.unreached
    expect(await unreached('shortest')).toEqual([
      'ring.b on next -> ring.c',
      'ring.c on next -> ring.a',
    ])
    expect(await unreached('simple')).toEqual(['ring.c on next -> ring.a'])
    expect(await unreached('transitions')).toEqual([])
  })

  test('counts delayed transitions: a timer no path waits for is unreached', async () => {
    const report = await measureMachineCoverage(lampMachine, {
      input: { bright: false },
      events: lampEvents,
      stopWhen: (snapshot) => snapshot.matches({ door: 'closed' }),
    })
    expect(report.states.unreached).toEqual(['lamp.door.locked'])
    expect(report.transitions.unreached).toEqual([
      'lamp.light.choosing always [isBright] -> lamp.light.on',
      'lamp.door.closed after lockDelay -> lamp.door.locked',
    ])
  })

  test('advances the simulated clock by exactly the delay, not sending the event', async () => {
    const seen: string[] = []
    await measureMachineCoverage(lampMachine, {
      input: { bright: true },
      events: [],
      assertState: (snapshot, { clock, event }) => {
        seen.push(`${event.type} @${clock.now()}: ${JSON.stringify(snapshot.value)}`)
      },
    })
    expect(seen).toEqual([
      'xstate.init @0: {"light":"on","door":"open"}',
      'xstate.after.1000.lamp.light.on @1000: {"light":"off","door":"open"}',
    ])
  })

  test('fails when anything reaches the actor before the timer is due', async () => {
    const pinger = createMachine({
      initial: 'idle',
      states: { idle: { after: { 500: { actions: sendParent({ type: 'poke' }) } } } },
    })
    const machine = setup({
      types: {} as { context: { pokes: number }; events: { type: 'poke' } },
      actors: { pinger },
    }).createMachine({
      id: 'waiter',
      context: { pokes: 0 },
      initial: 'waiting',
      states: {
        waiting: {
          invoke: { src: 'pinger' },
          on: { poke: { actions: assign({ pokes: ({ context }) => context.pokes + 1 }) } },
          after: { 1000: 'done' },
        },
        done: {},
      },
    })
    const report = await measureMachineCoverage(machine, { events: [] })
    expect(report.failures).toEqual([
      'xstate.after.1000.waiter.waiting: poke reached the actor before the timer was due\n' +
        '    path: xstate.after.1000.waiter.waiting',
    ])
  })

  test('leaves out paths whose timers cannot fire in that order, without failing', async () => {
    // close, then wait for the 1000 ms lamp timer: the 500 ms lock timer always fires first
    const report = await testMachineCoverage(lampMachine, {
      inputs: [{ bright: true }, { bright: false }],
      events: lampEvents,
    })
    expect(report.skipped.map((reason) => reason.split('\n    path: ')[1])).toEqual([
      'close → xstate.after.1000.lamp.light.on',
      'flip → close → xstate.after.1000.lamp.light.on',
    ])
    expect(report.skipped[0]).toMatch(
      /^xstate\.after\.lockDelay\.lamp\.door\.closed is due no later than xstate\.after\.1000/,
    )
  })

  test('reports a replay failure when the real actor leaves the generated path', async () => {
    const loader = setup({
      actors: { load: fromPromise(async (): Promise<string> => 'never used') },
    }).createMachine({
      id: 'loader',
      initial: 'loading',
      states: {
        loading: { invoke: { id: 'load', src: 'load', onDone: 'ready' } },
        ready: {},
      },
    })
    const done = { type: 'xstate.done.actor.load', output: 'data', actorId: 'load' }

    // a fake that settles on its own moves the actor where the graph did not go
    const settling = loader.provide({ actors: { load: fromPromise(async () => 'data') } })
    const report = await measureMachineCoverage(settling, { events: [] })
    expect(report.failures).toHaveLength(1)
    expect(report.failures[0]).toMatch(
      /graph expects\n.*"loading".*\n.*but the actor is in\n.*"ready"/,
    )

    // a pending fake plus a path that delivers the done event keeps model and actor in step
    const pending = loader.provide({
      actors: { load: fromPromise(() => new Promise<string>(() => {})) },
    })
    const covered = await testMachineCoverage(pending, { events: [done] })
    expect(covered.transitions.unreached).toEqual([])
  })

  test('runs assertState on every replayed state and reports what it throws', async () => {
    const report = await measureMachineCoverage(lampMachine, {
      input: { bright: false },
      events: lampEvents,
      assertState: (snapshot) => {
        if (snapshot.matches({ door: 'locked' })) throw new Error('the door must not lock')
      },
    })
    expect(report.complete).toBe(false)
    expect(report.failures[0]).toMatch(/assertState failed at step \d .*: the door must not lock/)
  })

  test('refuses an unbounded traversal with a readable error', async () => {
    const counter = createMachine({
      types: {} as { context: { count: number } },
      id: 'counter',
      context: { count: 0 },
      on: { inc: { actions: assign({ count: ({ context }) => context.count + 1 }) } },
    })
    await expect(
      measureMachineCoverage(counter, { events: [{ type: 'inc' }], limit: 50 }),
    ).rejects.toThrow(/exceeded 50 iterations: bound the state space/)

    const bounded = await testMachineCoverage(counter, {
      events: [{ type: 'inc' }],
      serializeState: (snapshot) => String(Math.min(snapshot.context.count, 2)),
    })
    expect(bounded.complete).toBe(true)
  })
})
