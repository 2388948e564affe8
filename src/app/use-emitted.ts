import { type DependencyList, useEffect } from 'react'
import type { Subscription } from 'xstate'

/**
 * Bridges what machines emit to the app's own services (the toaster, the session, the router)
 * for as long as a view is mounted: `subscribe` returns the `actor.on(...)` subscriptions, and
 * they end when the view goes or an actor it names changes. Views use this instead of effects.
 */
export function useEmitted(subscribe: () => Subscription[], deps: DependencyList) {
  useEffect(
    () => {
      const subscriptions = subscribe()
      return () => {
        for (const subscription of subscriptions) subscription.unsubscribe()
      }
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the actors it uses
    deps,
  )
}
