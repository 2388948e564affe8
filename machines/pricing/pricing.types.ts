import type { BillingPeriod, PricingTier } from '../../contract/billing.ts'
import type { CheckoutInput } from '../checkout/checkout.types.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: 'Loading pricing plans...'; `busy`: a checkout is starting. */
export type PricingTags = 'loading' | 'busy'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type PricingEvent =
  /** Opened from Settings, or by a limit error (its text is shown above the plans). */
  | { type: 'open'; reason?: string | null }
  | { type: 'close' }
  | { type: 'period.set'; period: BillingPeriod }
  /** 'Choose {base_name}': the tier's price id at the chosen period. */
  | { type: 'choose'; priceId: string }
  /** 'Try Again' after a load failure: the page reloads (spec section 8). */
  | { type: 'retry' }

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** `loadPlans`: GET admin/license_tiers/ and the organisation's current tier. */
export interface LoadPlansOutput {
  tiers: PricingTier[]
  currentTier: string | null
  salesUrl: string
}
/** `checkout` is the checkout machine, given the chosen price. */
export type PricingCheckoutInput = CheckoutInput

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface PricingInput {
  /** The customer's email and country, handed to the checkout overlay when known. */
  email?: string | null
  countryCode?: string | null
}

export interface PricingContext {
  period: BillingPeriod
  tiers: PricingTier[]
  currentTier: string | null
  salesUrl: string
  /** Why the dialog opened by itself: the limit error's text. */
  reason: string | null
  /** The checkout's failure, shown in the dialog. */
  checkoutError: string | null
  /** The price whose checkout is starting. */
  choosing: string | null
  email: string | null
  countryCode: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** `reload`: the app reloads the page ('Try Again'). */
export type PricingEmitted = { type: 'reload' }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface PricingSchema {
  context: PricingContext
  events: PricingEvent
  input: PricingInput
  emitted: PricingEmitted
  tags: PricingTags
}
