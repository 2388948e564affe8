import { describe, expect, test } from 'vitest'
import {
  type AnyMachineSnapshot,
  assign,
  createActor,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate'
import { pendingActors } from '../support/pending-actors.ts'
import { checkView, machineTags, viewSelectors } from '../support/view-check.ts'

/** A save behind a button: 'busy' while it runs, its failure kept in the context. */
const saveMachine = setup({
  types: {} as { context: { error: string | null; saved: number } },
  actors: {
    save: fromPromise<number>(async () => 1),
    check: fromPromise<boolean>(async () => true),
  },
}).createMachine({
  id: 'save',
  context: { error: null, saved: 0 },
  initial: 'idle',
  states: {
    idle: { on: { save: 'saving' } },
    saving: {
      tags: 'busy',
      invoke: {
        src: 'save',
        onDone: { target: 'idle', actions: assign({ saved: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: 'Not saved' }) },
      },
    },
    failed: { on: { save: 'saving' } },
  },
})

type Snapshot = SnapshotFrom<typeof saveMachine>
const tags = machineTags(saveMachine)
const everything = { tags, errors: true }

/** The machine's state after one save per outcome: each answered in turn, 'pending' never. */
async function reach(...outcomes: ('saved' | 'failed' | 'pending')[]) {
  const answers = [...outcomes]
  const machine = saveMachine.provide({
    actors: {
      save: fromPromise<number>(() => {
        const outcome = answers.shift()
        if (outcome === 'pending') return new Promise(() => {})
        return outcome === 'failed' ? Promise.reject(new Error('offline')) : Promise.resolve(2)
      }),
    },
  })
  const actor = createActor(machine).start()
  for (const _ of outcomes) {
    actor.send({ type: 'save' })
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return actor.getSnapshot() as AnyMachineSnapshot
}

describe('the default check of a path test', () => {
  const sound = {
    saveView: {
      busy: (s: Snapshot) => s.hasTag('busy'),
      error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
    },
  }

  test('reads the selectors of an index module: select* functions and view maps', () => {
    const names = viewSelectors({
      ...sound,
      selectSaved: (s: Snapshot) => s.context.saved,
      rowActions: (s: Snapshot, id: number) => [s.context.saved, id],
      saveMachine,
      TEXTS: { title: 'Save' },
    }).map((selector) => selector.name)
    expect(names).toEqual(['saveView.busy', 'saveView.error', 'selectSaved'])
    expect(() => viewSelectors({ saveMachine })).toThrow(/no selectors/)
  })

  test('passes a view that reports its tags and its errors', () => {
    const selectors = viewSelectors(sound)
    for (const state of [states.saved, states.failed, states.pending]) {
      expect(() => checkView(state, selectors, everything)).not.toThrow()
    }
  })

  test("fails a state tagged 'busy' whose busy selector says otherwise, and the reverse", async () => {
    const late = viewSelectors({ saveView: { busy: (s: Snapshot) => s.matches('idle') } })
    expect(() => checkView(states.pending, late, everything)).toThrow(
      "the state is tagged 'busy' but saveView.busy is false",
    )
    expect(() => checkView(states.saved, late, everything)).toThrow(
      "saveView.busy is true in a state without the tag 'busy'",
    )
  })

  test('fails an error that arrives and no selector shows, but not one kept from before', () => {
    const silent = viewSelectors({ saveView: { busy: (s: Snapshot) => s.hasTag('busy') } })
    expect(() => checkView(states.failed, silent, everything)).toThrow(
      'context.error holds "Not saved" but no selector shows it',
    )
    // a retry that has not answered keeps the error it had, hidden
    expect(states.retrying.context.error).toBe('Not saved')
    expect(() =>
      checkView(states.retrying, silent, { ...everything, before: states.failed }),
    ).not.toThrow()
  })

  test('fails a selector that cannot read a state', () => {
    const broken = viewSelectors({
      saveView: { first: (s: Snapshot) => (s.context.error as string).length },
    })
    expect(() => checkView(states.saved, broken, everything)).toThrow(
      /saveView.first cannot read the state/,
    )
  })
})

const states = {
  saved: await reach('saved'),
  failed: await reach('failed'),
  pending: await reach('pending'),
  retrying: await reach('failed', 'pending'),
}

describe('pendingActors', () => {
  test('gives every actor the machine declares a call that never settles', async () => {
    const actor = createActor(pendingActors(saveMachine)).start()
    actor.send({ type: 'save' })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(actor.getSnapshot().value).toBe('saving')
  })

  test('keeps the logic given for some, and refuses a name the machine does not declare', async () => {
    const saved = fromPromise<number>(async () => 5)
    const actor = createActor(pendingActors(saveMachine, { save: saved })).start()
    actor.send({ type: 'save' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().context.saved).toBe(5)
    // @ts-expect-error: the machine declares no such actor
    expect(() => pendingActors(saveMachine, { load: saved })).toThrow('save declares no actor load')
  })
})
