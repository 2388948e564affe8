import { assign, createActor, SimulatedClock, sendTo, setup, spawnChild, stopChild } from 'xstate'

const child = setup({ types: {} as { events: { type: 'dismiss' } } }).createMachine({
  id: 'child',
  initial: 'a',
  states: { a: { on: { dismiss: 'done' }, after: { 100: 'done' } }, done: { type: 'final' } },
  output: () => ({ ok: true }),
})

type DoneEv = { type: `xstate.done.actor.${string}`; output: unknown; actorId: string }
const parent = setup({
  types: {} as {
    context: { log: string[] }
    events: { type: 'go' } | { type: 'kill' } | { type: 'stop' } | DoneEv
    input: { x: boolean }
  },
  actors: { child },
  guards: {
    initX: ({ event }) => {
      console.log('guard event', JSON.stringify(event))
      return true
    },
  },
}).createMachine({
  context: { log: [] },
  initial: 'r',
  states: {
    r: { always: [{ guard: 'initX', target: 's' }] },
    s: {
      on: {
        go: { actions: spawnChild('child', { id: 'c1' }) },
        kill: { actions: sendTo('c1', { type: 'dismiss' }) },
        stop: { actions: stopChild('c1') },
        'xstate.done.actor.*': {
          actions: assign({
            log: ({ context, event }) => [...context.log, `${event.type}:${event.actorId}`],
          }),
        },
      },
    },
  },
})
const clock = new SimulatedClock()
const a = createActor(parent, { input: { x: true }, clock })
a.system.inspect((e) => {
  if (e.type === '@xstate.action') console.log('action', JSON.stringify(e.action))
})
a.start()
a.send({ type: 'go' })
console.log('children', Object.keys(a.getSnapshot().children))
a.send({ type: 'kill' })
console.log('after kill', a.getSnapshot().context.log, Object.keys(a.getSnapshot().children))
a.send({ type: 'go' })
clock.increment(100)
console.log('after timer', a.getSnapshot().context.log, Object.keys(a.getSnapshot().children))
a.send({ type: 'stop' })
console.log('after stop', Object.keys(a.getSnapshot().children))
a.send({ type: 'xstate.done.actor.zzz', output: 1, actorId: 'zzz' })
console.log('ext done', a.getSnapshot().context.log, a.getSnapshot().status)
