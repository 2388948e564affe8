import { useActorRef } from '@xstate/react'
import { createContext, useContext, useEffect } from 'react'
import type { ActorRefFrom } from 'xstate'
import { pricingMachine } from '../../../machines/pricing/index.ts'
import { billingActors, browserCountry } from '../../api/billing-actors.ts'
import { limitEvents } from '../../api/events.ts'

export type PricingActorRef = ActorRefFrom<typeof pricingMachine>

const actors = billingActors()
const logic = pricingMachine.provide({
  actors: { loadPlans: actors.loadPlans, checkout: actors.checkout },
})

/**
 * The 'Choose Your Plan' actor of the signed-in layout. Settings opens it; so does every call the
 * server refuses at a license limit (the refusal's text is shown above the plans).
 */
export function usePricing() {
  const actor = useActorRef(logic, { input: { countryCode: browserCountry() } })
  useEffect(() => {
    const reload = actor.on('reload', () => window.location.reload())
    const off = limitEvents.on((event) => actor.send({ type: 'open', reason: event.message }))
    return () => {
      reload.unsubscribe()
      off()
    }
  }, [actor])
  return actor
}

/** The layout's pricing actor, for pages that open the dialog (Settings → Plan). */
export const PricingContext = createContext<PricingActorRef | null>(null)
export const usePricingActor = () => useContext(PricingContext)
