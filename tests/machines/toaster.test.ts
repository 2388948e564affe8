import { describe, expect, test } from 'vitest'
import { createActor, type EventFromLogic, SimulatedClock, type SnapshotFrom } from 'xstate'
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../../machines/constants.ts'
import {
  selectQueuedCount,
  selectVisibleToasts,
  type ToastInput,
  toasterMachine,
} from '../../machines/toaster/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

type ToasterEvent = EventFromLogic<typeof toasterMachine>
type ToasterSnapshot = SnapshotFrom<typeof toasterMachine>

const DONE_PREFIX = 'xstate.done.actor.'

function start() {
  const clock = new SimulatedClock()
  const actor = createActor(toasterMachine, { clock })
  const actions: { id: string; key: string }[] = []
  actor.on('action', ({ id, key }) => actions.push({ id, key }))
  actor.start()
  const show = (toast: Partial<ToastInput> = {}) =>
    actor.send({ type: 'toast.show', toast: { title: 'Saved', type: 'success', ...toast } })
  const visibleIds = () => selectVisibleToasts(actor.getSnapshot()).map((toast) => toast.id)
  const queued = () => selectQueuedCount(actor.getSnapshot())
  const childState = (id: string) => actor.getSnapshot().children[id]?.getSnapshot().value
  return { actor, clock, actions, show, visibleIds, queued, childState }
}

/** Every command for every listed toast, and new shows while there are fewer than four. */
function coverageEvents(snapshot: ToasterSnapshot): ToasterEvent[] {
  const toasts = [...snapshot.context.visible, ...snapshot.context.queued]
  const shows: ToasterEvent[] =
    toasts.length > TOAST_MAX_VISIBLE
      ? []
      : [
          { type: 'toast.show', toast: { title: 'Saved', type: 'success' } },
          {
            type: 'toast.show',
            toast: { title: 'Deleted', type: 'info', action: { label: 'Undo', key: 'undo' } },
          },
        ]
  const commands = toasts.flatMap(({ id }): ToasterEvent[] => [
    { type: 'toast.dismiss', id },
    { type: 'toast.action', id },
    { type: 'toast.pause', id },
    { type: 'toast.resume', id },
    { type: 'toast.show', toast: { id, title: 'Updated', type: 'warning', duration: null } },
    { type: `${DONE_PREFIX}${id}`, output: { id }, actorId: id },
  ])
  return [...shows, ...commands, { type: 'toast.dismissAll' }]
}

describe('toasterMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(toasterMachine, {
      events: coverageEvents,
      // ids and the id counter grow without bound; titles and order are what matters here
      serializeState: (snapshot) =>
        JSON.stringify([
          snapshot.value,
          snapshot.context.visible.map((toast) => toast.title),
          snapshot.context.queued.map((toast) => toast.title),
        ]),
      perform: {
        // a child finishes for real: dismissed through its own ref, it reaches its final state
        // and the toaster receives the genuine done event
        [`${DONE_PREFIX}*`]: ({ actor, event }) => {
          const child = actor.getSnapshot().children[event.type.slice(DONE_PREFIX.length)]
          child?.send({ type: 'dismiss' })
        },
      },
      assertState: (snapshot) => {
        const { visible, queued } = snapshot.context
        expect(visible.length).toBeLessThanOrEqual(TOAST_MAX_VISIBLE)
        if (queued.length) expect(visible).toHaveLength(TOAST_MAX_VISIBLE)
        // one live child per listed toast, none left over
        expect(Object.keys(snapshot.children).sort()).toEqual(
          [...visible, ...queued].map((toast) => toast.id).sort(),
        )
        for (const toast of visible) {
          expect(snapshot.children[toast.id]?.getSnapshot().matches('queued')).toBe(false)
        }
        for (const toast of queued) {
          expect(snapshot.children[toast.id]?.getSnapshot().value).toBe('queued')
        }
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('shows a toast at once with a generated id and the default 4 s duration', () => {
    const { actor, show, childState } = start()
    show({ description: 'All changes saved' })
    expect(selectVisibleToasts(actor.getSnapshot())).toEqual([
      {
        id: 'toast-1',
        title: 'Saved',
        description: 'All changes saved',
        type: 'success',
        duration: TOAST_DURATION_MS,
      },
    ])
    expect(childState('toast-1')).toEqual({ visible: 'counting' })
    expect(actor.getSnapshot().value).toBe('showing')
  })

  test('a toast disappears 4 s after it becomes visible and not 1 ms before', () => {
    const { actor, clock, show, visibleIds } = start()
    show()
    clock.increment(TOAST_DURATION_MS - 1)
    expect(visibleIds()).toEqual(['toast-1'])
    clock.increment(1)
    expect(visibleIds()).toEqual([])
    expect(actor.getSnapshot().value).toBe('empty')
    expect(actor.getSnapshot().children).toEqual({})
  })

  test('only three toasts are visible; the fourth appears when one is dismissed', () => {
    const { actor, show, visibleIds, queued } = start()
    for (let count = 0; count < 4; count++) show()
    expect(visibleIds()).toEqual(['toast-1', 'toast-2', 'toast-3'])
    expect(queued()).toBe(1)
    actor.send({ type: 'toast.dismiss', id: 'toast-2' })
    expect(visibleIds()).toEqual(['toast-1', 'toast-3', 'toast-4'])
    expect(queued()).toBe(0)
  })

  test("the fourth toast's timer starts only when it becomes visible", () => {
    const { clock, show, visibleIds, queued, childState } = start()
    show()
    clock.increment(1_000)
    show()
    show()
    show()
    expect(childState('toast-4')).toBe('queued')
    // toast-1 times out at 4 s; toast-4 shows then and gets its own full 4 s
    clock.increment(TOAST_DURATION_MS - 1_000)
    expect(visibleIds()).toEqual(['toast-2', 'toast-3', 'toast-4'])
    expect(queued()).toBe(0)
    // toast-2 and toast-3 (shown at 1 s) leave at 5 s; toast-4 (shown at 4 s) stays until 8 s
    clock.increment(1_000)
    expect(visibleIds()).toEqual(['toast-4'])
    clock.increment(TOAST_DURATION_MS - 1_000 - 1)
    expect(visibleIds()).toEqual(['toast-4'])
    clock.increment(1)
    expect(visibleIds()).toEqual([])
  })

  test('toast.action emits action with the key and dismisses the toast', () => {
    const { actor, actions, show, visibleIds } = start()
    show({ title: 'Deleted', action: { label: 'Undo', key: 'undo' } })
    actor.send({ type: 'toast.action', id: 'toast-1' })
    expect(actions).toEqual([{ id: 'toast-1', key: 'undo' }])
    expect(visibleIds()).toEqual([])
  })

  test('toast.action on a toast without an action does nothing', () => {
    const { actor, actions, show, visibleIds } = start()
    show()
    actor.send({ type: 'toast.action', id: 'toast-1' })
    expect(actions).toEqual([])
    expect(visibleIds()).toEqual(['toast-1'])
  })

  test('a show with an existing id updates that toast in place and restarts its timer', () => {
    const { actor, clock, show, visibleIds } = start()
    show({ id: 'upload' })
    show()
    clock.increment(3_000)
    show({ id: 'upload', title: 'Uploaded', type: 'info' })
    expect(selectVisibleToasts(actor.getSnapshot()).map(({ id, title }) => [id, title])).toEqual([
      ['upload', 'Uploaded'],
      ['toast-1', 'Saved'],
    ])
    clock.increment(1_000)
    expect(visibleIds()).toEqual(['upload'])
    clock.increment(TOAST_DURATION_MS - 1_000 - 1)
    expect(visibleIds()).toEqual(['upload'])
    clock.increment(1)
    expect(visibleIds()).toEqual([])
  })

  test('dismissAll clears visible and queued toasts and stops their timers', () => {
    const { actor, clock, show, visibleIds, queued } = start()
    for (let count = 0; count < 5; count++) show()
    actor.send({ type: 'toast.dismissAll' })
    expect(visibleIds()).toEqual([])
    expect(queued()).toBe(0)
    expect(actor.getSnapshot().value).toBe('empty')
    expect(actor.getSnapshot().children).toEqual({})
    clock.increment(10 * TOAST_DURATION_MS)
    expect(actor.getSnapshot().value).toBe('empty')
  })

  test('hovering a visible toast pauses its timer; leaving restarts the full duration', () => {
    const { actor, clock, show, visibleIds } = start()
    show()
    clock.increment(3_000)
    actor.send({ type: 'toast.pause', id: 'toast-1' })
    clock.increment(60_000)
    expect(visibleIds()).toEqual(['toast-1'])
    actor.send({ type: 'toast.resume', id: 'toast-1' })
    clock.increment(TOAST_DURATION_MS - 1)
    expect(visibleIds()).toEqual(['toast-1'])
    clock.increment(1)
    expect(visibleIds()).toEqual([])
  })

  test('hovering cannot pause a queued toast', () => {
    const { actor, show, childState } = start()
    for (let count = 0; count < 4; count++) show()
    actor.send({ type: 'toast.pause', id: 'toast-4' })
    expect(childState('toast-4')).toBe('queued')
  })

  test('a toast with duration Infinity or null stays until dismissed', () => {
    const { actor, clock, show, visibleIds } = start()
    show({ duration: Number.POSITIVE_INFINITY })
    show({ duration: null })
    expect(selectVisibleToasts(actor.getSnapshot()).map((toast) => toast.duration)).toEqual([
      null,
      null,
    ])
    clock.increment(24 * 60 * 60 * 1_000)
    expect(visibleIds()).toEqual(['toast-1', 'toast-2'])
    actor.send({ type: 'toast.dismiss', id: 'toast-1' })
    expect(visibleIds()).toEqual(['toast-2'])
  })

  test('a dismissed id can be shown again', () => {
    const { actor, clock, show, visibleIds } = start()
    show({ id: 'sync' })
    actor.send({ type: 'toast.dismiss', id: 'sync' })
    show({ id: 'sync' })
    expect(visibleIds()).toEqual(['sync'])
    clock.increment(TOAST_DURATION_MS)
    expect(visibleIds()).toEqual([])
  })

  test('generated ids skip an id a caller already used', () => {
    const { show, visibleIds } = start()
    show({ id: 'toast-1' })
    show()
    show()
    expect(visibleIds()).toEqual(['toast-1', 'toast-2', 'toast-3'])
  })

  test('commands for unknown ids are ignored', () => {
    const { actor, actions, show, visibleIds } = start()
    show()
    for (const type of ['toast.dismiss', 'toast.action', 'toast.pause', 'toast.resume'] as const) {
      actor.send({ type, id: 'nope' })
    }
    expect(visibleIds()).toEqual(['toast-1'])
    expect(actions).toEqual([])
    expect(actor.getSnapshot().status).toBe('active')
  })
})
