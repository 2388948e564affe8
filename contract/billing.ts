import * as z from 'zod/mini'

/**
 * Licensing and pricing (spec sections 2, 3 and 9): the tiers the pricing dialog lists, the
 * organisation's usage against its limits, its subscription, and the payment hand-off.
 */

export const BILLING_PERIODS = ['monthly', 'yearly'] as const
export type BillingPeriod = (typeof BILLING_PERIODS)[number]

/** The checkout provider's name; the price id field is named after it (spec section 3). */
export const CHECKOUT_PROVIDER = 'paddle'

/** One entry of GET admin/license_tiers/: a tier at one billing period. */
export const pricingTierSchema = z.object({
  /** `{tier}-{billing_period}`, e.g. `team-yearly`. */
  id: z.string(),
  /** The tier's name with its period, e.g. 'Team (Yearly)'. */
  name: z.string(),
  /** The tier's name alone, for 'Choose {base_name}'. */
  base_name: z.string(),
  /** The tier's key, shared by both periods. */
  tier: z.string(),
  description: z.string(),
  /** In dollars, for the whole period. */
  price: z.number(),
  billing_period: z.enum(BILLING_PERIODS),
  /** Null: not sold through checkout ('Contact Sales'). */
  paddle_price_id: z.nullable(z.string()),
  popular: z.boolean(),
  highlighted: z.boolean(),
  features: z.array(z.string()),
  max_users: z.number(),
  max_repository: z.number(),
  max_questionnaire: z.number(),
  max_answers: z.number(),
  multi_language: z.boolean(),
  is_evaluation: z.boolean(),
})
export type PricingTier = z.infer<typeof pricingTierSchema>
export const pricingTiersSchema = z.array(pricingTierSchema)

export { LICENSE_LIMIT } from './errors.ts'

/** The limits a license carries; 0 or less on a limit means no limit. */
export const LIMITS = ['max_users', 'max_repository', 'max_questionnaire', 'max_answers'] as const
export type LimitName = (typeof LIMITS)[number]

export const LIMIT_LABELS: Record<LimitName, string> = {
  max_users: 'People',
  max_repository: 'Repository files',
  max_questionnaire: 'Questionnaires',
  max_answers: 'Answers',
}

/** GET admin/usage/ (ours): each limit with what is used of it. */
export const usageSchema = z.object({
  tier: z.string(),
  tier_name: z.string(),
  is_evaluation: z.boolean(),
  multi_language: z.boolean(),
  /** False when the license expired or was ended: the Free tier's limits apply. */
  is_active: z.boolean(),
  expiration_date: z.nullable(z.string()),
  limits: z.array(
    z.object({
      name: z.enum(LIMITS),
      label: z.string(),
      used: z.number(),
      /** Null: no limit. */
      max: z.nullable(z.number()),
    }),
  ),
})
export type Usage = z.infer<typeof usageSchema>

/** Paddle's transaction statuses the webhook records. */
export const TRANSACTION_STATUSES = [
  'draft',
  'ready',
  'billed',
  'paid',
  'completed',
  'canceled',
  'past_due',
] as const
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'paused',
  'canceled',
] as const

/** GET payouts/subscription/: the organisation's subscription, null when on no paid plan. */
export const subscriptionSchema = z.object({
  subscription: z.nullable(
    z.object({
      id: z.string(),
      status: z.enum(SUBSCRIPTION_STATUSES),
      tier: z.nullable(z.string()),
      tier_name: z.nullable(z.string()),
      billing_period: z.nullable(z.enum(BILLING_PERIODS)),
      current_period_end: z.nullable(z.string()),
      canceled_at: z.nullable(z.string()),
      updated_at: z.string(),
    }),
  ),
})
export type Subscription = z.infer<typeof subscriptionSchema>

/** POST payouts/checkout/ (ours): a one-time reference that binds a checkout to the organisation. */
export const checkoutRequestSchema = z.object({
  paddle_price_id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
})
export const checkoutResponseSchema = z.object({
  /** Passed to the provider as custom data; the webhook maps it back to the organisation. */
  reference: z.string(),
  paddle_price_id: z.string(),
  email: z.string(),
})
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>

/**
 * POST payouts/webhook/ from the landing page: `{data}` taken from /payouts?data, the id of the
 * provider's transaction the checkout completed. Confirms only what a signed delivery recorded.
 */
export const payoutConfirmSchema = z.object({
  data: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
})
export const payoutConfirmationSchema = z.object({
  status: z.enum(['pending', 'processed']),
  transaction_status: z.optional(z.enum(TRANSACTION_STATUSES)),
  tier_name: z.optional(z.nullable(z.string())),
})
export type PayoutConfirmation = z.infer<typeof payoutConfirmationSchema>

/** The public payment settings the client reads before opening checkout. */
export const paymentConfigSchema = z.object({
  enabled: z.boolean(),
  environment: z.enum(['sandbox', 'production']),
  client_token: z.nullable(z.string()),
  /** Where 'Contact Sales' leads. */
  sales_url: z.string(),
})
export type PaymentConfig = z.infer<typeof paymentConfigSchema>

export const BILLING_TEXTS = {
  dialogTitle: 'Choose Your Plan',
  monthly: 'Monthly',
  yearly: 'Yearly',
  saveBadge: 'Save 20%',
  mostPopular: 'Most Popular',
  choose: 'Choose {base_name}',
  contactSales: 'Contact Sales',
  loading: 'Loading pricing plans...',
  loadFailed: 'Failed to load pricing information',
  tryAgain: 'Try Again',
  currentPlan: 'Current Plan',
  /** The checkout provider is switched off by its flag (spec sections 5 and 8). */
  providerNotInitialized: 'Payment provider is not initialized',
  checkoutFailed: 'Checkout could not be opened. Please try again.',
  webhookFailed: 'Failed to process webhook',
  webhookLoading: 'Processing your payment...',
  webhookSuccess: 'Payment successful',
  webhookSuccessDetail: 'Your plan is now {tier_name}. Thank you!',
  webhookSuccessNoTier: 'Your payment was received. Thank you!',
  returnToDashboard: 'Return to Dashboard',
  unknownPrice: 'That plan cannot be bought here. Choose a plan from the list.',
  limitReached: 'You reached a limit of your plan',
  perMonth: '/month',
  perYear: '/year',
} as const
