import type { SnapshotFrom } from 'xstate'
import type { PricingTier } from '../../contract/billing.ts'
import type { pricingMachine } from './pricing.machine.ts'

export { pricingMachine } from './pricing.machine.ts'
export type * from './pricing.types.ts'

type Snapshot = SnapshotFrom<typeof pricingMachine>

export const selectIsOpen = (snapshot: Snapshot) => snapshot.matches('open')
/** Which body the dialog shows. */
export const selectScreen = (snapshot: Snapshot) =>
  snapshot.matches({ open: 'loading' })
    ? 'loading'
    : snapshot.matches({ open: 'failed' })
      ? 'failed'
      : 'plans'
export const selectPeriod = (snapshot: Snapshot) => snapshot.context.period

/** The tiers of the chosen period, sorted by ascending price (spec section 9). */
export const cardsOf = (tiers: readonly PricingTier[], period: PricingTier['billing_period']) =>
  tiers
    .filter((tier) => tier.billing_period === period)
    .sort((a, b) => a.price - b.price || a.base_name.localeCompare(b.base_name))

export const selectCards = (snapshot: Snapshot) =>
  cardsOf(snapshot.context.tiers, snapshot.context.period)

/** What pricing-dialog reads, through `useView`. */
export const pricingView = {
  open: selectIsOpen,
  screen: selectScreen,
  period: selectPeriod,
  cards: selectCards,
  currentTier: (snapshot: Snapshot) => snapshot.context.currentTier,
  salesUrl: (snapshot: Snapshot) => snapshot.context.salesUrl,
  reason: (snapshot: Snapshot) => snapshot.context.reason,
  checkoutError: (snapshot: Snapshot) => snapshot.context.checkoutError,
  choosing: (snapshot: Snapshot) => snapshot.context.choosing,
  busy: (snapshot: Snapshot) => snapshot.hasTag('busy'),
}
