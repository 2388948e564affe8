// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the provider is being started or its overlay opened. */
export type CheckoutTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The price chosen in the pricing dialog, and what the overlay may be given of the customer. */
export interface CheckoutInput {
  priceId: string
  email?: string | null
  countryCode?: string | null
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/**
 * `initProvider` starts the checkout provider (Paddle.js with the client token). It fails with
 * 'Payment provider is not initialized' while the payment flag is off (spec sections 5 and 8).
 */
export type InitProviderOutput = undefined
/** `createReference` asks the server for a one-time reference binding the checkout to the organisation. */
export interface CreateReferenceOutput {
  reference: string
  email: string
}
/** `openOverlay` opens the provider's overlay for the price, quantity 1. */
export interface OpenOverlayInput {
  priceId: string
  quantity: 1
  reference: string
  email: string | null
  countryCode: string | null
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface CheckoutContext {
  priceId: string
  email: string | null
  countryCode: string | null
  reference: string | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** Opened (the dialog closes), or the reason it could not open. */
export type CheckoutOutput = { opened: true } | { opened: false; error: string }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface CheckoutSchema {
  context: CheckoutContext
  input: CheckoutInput
  output: CheckoutOutput
  tags: CheckoutTags
}
