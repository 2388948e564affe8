import { act, render, screen } from '@testing-library/react'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { type ActorRefFrom, assign, createActor, type SnapshotFrom, setup } from 'xstate'
import { useView } from '../../src/app/use-view.ts'

/** useView reads a whole selector map at once and re-renders only when a selected value changes. */

const counterMachine = setup({
  types: {
    context: {} as { shown: number; items: string[]; hidden: number },
    events: {} as { type: 'shown' } | { type: 'item' } | { type: 'hidden' },
  },
}).createMachine({
  context: { shown: 0, items: [], hidden: 0 },
  on: {
    shown: { actions: assign({ shown: ({ context }) => context.shown + 1 }) },
    item: { actions: assign({ items: ({ context }) => [...context.items, 'x'] }) },
    hidden: { actions: assign({ hidden: ({ context }) => context.hidden + 1 }) },
  },
})
const labelMachine = setup({ types: { context: {} as { label: string } } }).createMachine({
  context: { label: '' },
})

type Snapshot = SnapshotFrom<typeof counterMachine>
const counterView = {
  shown: (s: Snapshot) => s.context.shown,
  items: (s: Snapshot) => s.context.items,
}

function Counter(props: { actor: ActorRefFrom<typeof counterMachine>; renders: number[] }) {
  const view = useView(props.actor, counterView)
  props.renders.push(view.shown)
  return (
    <p data-testid="counter">
      {view.shown} / {view.items.length}
    </p>
  )
}

function start() {
  const actor = createActor(counterMachine).start()
  const renders: number[] = []
  render(<Counter actor={actor} renders={renders} />)
  return { actor, renders }
}

describe('useView', () => {
  it('does not re-render when only an unselected part of the context changes', () => {
    const { actor, renders } = start()
    expect(renders).toHaveLength(1)
    act(() => actor.send({ type: 'hidden' }))
    act(() => actor.send({ type: 'hidden' }))
    expect(actor.getSnapshot().context.hidden).toBe(2)
    expect(renders).toHaveLength(1)
    expect(screen.getByTestId('counter').textContent).toBe('0 / 0')
  })

  it('re-renders once when a selected value changes', () => {
    const { actor, renders } = start()
    act(() => actor.send({ type: 'shown' }))
    expect(renders).toEqual([0, 1])
    expect(screen.getByTestId('counter').textContent).toBe('1 / 0')
    act(() => actor.send({ type: 'item' }))
    expect(renders).toHaveLength(3)
    expect(screen.getByTestId('counter').textContent).toBe('1 / 1')
  })

  it('types the values from the map, and the map must fit the actor (checked by tsc)', () => {
    const useTypes = (
      counter: ActorRefFrom<typeof counterMachine>,
      label: ActorRefFrom<typeof labelMachine>,
    ) => {
      expectTypeOf(useView(counter, counterView)).toEqualTypeOf<{
        shown: number
        items: string[]
      }>()
      // @ts-expect-error: the map reads another machine's snapshot
      useView(label, counterView)
    }
    expect(useTypes).toBeTypeOf('function')
  })
})
