import { shallowEqual, useSelector } from '@xstate/react'
import { useCallback } from 'react'
import type { AnyActorRef } from 'xstate'

/** What a view reads from one machine: a selector of its snapshot under each name. */
export type ViewMap<TSnapshot> = Record<string, (snapshot: TSnapshot) => unknown>

/** The values a view map reads: each selector's result under its name. */
export type ViewOf<TView extends ViewMap<never>> = { [K in keyof TView]: ReturnType<TView[K]> }

/**
 * Reads a whole view map (exported next to the machine's selectors) from an actor at once. The
 * values are compared one by one, so the view re-renders only when one of them changes, as with
 * a `useSelector` call per value.
 */
export function useView<TSnapshot, TView extends ViewMap<TSnapshot>>(
  actor: Pick<AnyActorRef, 'subscribe'> & { getSnapshot(): TSnapshot },
  view: TView,
): ViewOf<TView> {
  const select = useCallback(
    (snapshot: TSnapshot) => {
      const values: Record<string, unknown> = {}
      for (const [name, selector] of Object.entries(view)) values[name] = selector(snapshot)
      return values as ViewOf<TView>
    },
    [view],
  )
  return useSelector(actor, select, shallowEqual)
}
