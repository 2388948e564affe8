import type { PayoutConfirmation } from '../../contract/billing.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the payment is being confirmed (also while waiting for the provider's delivery). */
export type PayoutsTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** /payouts?data: the provider's transaction id the checkout completed. */
export interface PayoutsInput {
  data?: string | null
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** `confirmPayout` POSTs {data} to payouts/webhook/: processed (200) or pending (202). */
export type ConfirmPayoutOutput = PayoutConfirmation

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface PayoutsContext {
  data: string | null
  /** Confirmations asked so far. */
  attempts: number
  tierName: string | null
}

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `poll` (PAYOUT_POLL_MS): between two confirmations while the delivery is pending.

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface PayoutsSchema {
  context: PayoutsContext
  input: PayoutsInput
  tags: PayoutsTags
}
