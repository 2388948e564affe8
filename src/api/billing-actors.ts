import { fromPromise } from 'xstate'
import {
  BILLING_TEXTS,
  checkoutResponseSchema,
  type PaymentConfig,
  paymentConfigSchema,
  payoutConfirmationSchema,
  pricingTiersSchema,
  subscriptionSchema,
  usageSchema,
} from '../../contract/billing.ts'
import { paths } from '../../contract/paths.ts'
import type { CreateReferenceOutput, OpenOverlayInput } from '../../machines/checkout/index.ts'
import { checkoutMachine } from '../../machines/checkout/index.ts'
import type { ConfirmPayoutOutput } from '../../machines/payouts/index.ts'
import type { PlanUsage } from '../../machines/plan-usage/index.ts'
import type { LoadPlansOutput } from '../../machines/pricing/index.ts'
import { type ApiClient, api } from './client.ts'

/** The part of Paddle.js (v2) checkout uses. */
interface PaddleJs {
  Environment: { set(environment: 'sandbox'): void }
  Initialize(options: {
    token: string
    eventCallback?: (event: { name?: string; data?: { transaction_id?: string } }) => void
  }): void
  Checkout: { open(options: Record<string, unknown>): void }
}
declare global {
  interface Window {
    Paddle?: PaddleJs
  }
}

const PADDLE_JS = 'https://cdn.paddle.com/paddle/v2/paddle.js'
const notInitialized = () => new Error(BILLING_TEXTS.providerNotInitialized)

let paddle: Promise<PaddleJs> | null = null

/** Loads and starts Paddle.js once; a completed checkout goes to /payouts?data=<transaction>. */
function startPaddle(config: PaymentConfig): Promise<PaddleJs> {
  const token = config.client_token
  if (!config.enabled || !token) return Promise.reject(notInitialized())
  paddle ??= new Promise<PaddleJs>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = PADDLE_JS
    script.async = true
    script.onload = () => {
      const loaded = window.Paddle
      if (!loaded) return reject(notInitialized())
      if (config.environment === 'sandbox') loaded.Environment.set('sandbox')
      loaded.Initialize({
        token,
        eventCallback: (event) => {
          const transaction = event.data?.transaction_id
          if (event.name === 'checkout.completed' && transaction)
            location.assign(`/payouts?data=${encodeURIComponent(transaction)}`)
        },
      })
      resolve(loaded)
    }
    script.onerror = () => reject(notInitialized())
    document.head.append(script)
  }).catch((error) => {
    paddle = null
    throw error
  })
  return paddle
}

/** The region of the browser's language (en-GB: GB), for the overlay's country. */
export function browserCountry(): string | null {
  const region = navigator.language?.split('-')[1]
  return region && /^[A-Z]{2}$/.test(region) ? region : null
}

/** The real side effects of the pricing dialog, its checkout, Settings → Plan and /payouts. */
export function billingActors(client: ApiClient = api) {
  const config = () => client.get(paths.payouts.config, paymentConfigSchema)
  const checkout = checkoutMachine.provide({
    actors: {
      initProvider: fromPromise<undefined>(async () => {
        await startPaddle(await config())
        return undefined
      }),
      createReference: fromPromise<CreateReferenceOutput, { priceId: string }>(({ input }) =>
        client.post(
          paths.payouts.checkout,
          { paddle_price_id: input.priceId },
          checkoutResponseSchema,
        ),
      ),
      openOverlay: fromPromise<void, OpenOverlayInput>(async ({ input }) => {
        const loaded = await (paddle ?? Promise.reject(notInitialized()))
        loaded.Checkout.open({
          items: [{ priceId: input.priceId, quantity: input.quantity }],
          customData: { quire_reference: input.reference },
          ...(input.email && {
            customer: {
              email: input.email,
              ...(input.countryCode && { address: { countryCode: input.countryCode } }),
            },
          }),
        })
      }),
    },
  })
  return {
    loadPlans: fromPromise<LoadPlansOutput>(async () => {
      const [tiers, usage, payment] = await Promise.all([
        client.get(paths.account.licenseTiers, pricingTiersSchema),
        client.get(paths.account.usage, usageSchema).catch(() => null),
        config().catch(() => null),
      ])
      return {
        tiers,
        currentTier: usage?.tier ?? null,
        salesUrl: payment?.sales_url ?? 'mailto:',
      }
    }),
    checkout,
    loadPlanUsage: fromPromise<PlanUsage, void>(async () => {
      const [usage, subscription] = await Promise.all([
        client.get(paths.account.usage, usageSchema),
        client.get(paths.payouts.subscription, subscriptionSchema),
      ])
      return { usage, subscription: subscription.subscription }
    }),
    confirmPayout: fromPromise<ConfirmPayoutOutput, { data: string }>(({ input }) =>
      client.post(paths.payouts.webhook, { data: input.data }, payoutConfirmationSchema),
    ),
  }
}
