import type { Context, Next } from 'hono'
import { safeParse } from 'zod/mini'
import {
  BILLING_TEXTS,
  checkoutRequestSchema,
  type PaymentConfig,
  payoutConfirmSchema,
} from '../../../contract/billing.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { apiError } from '../../http/errors.ts'
import { areaRouter, orgOf } from '../../http/route-kit.ts'
import { jsonBody } from '../../http/validate.ts'
import type { TierCatalog } from '../account/license.ts'
import { type createEventProcessor, notificationSchema } from './events.ts'
import type { createBillingService } from './service.ts'
import { verifySignature } from './signature.ts'

/** The checkout provider's settings (PADDLE_*): off by default, as the spec's flag says. */
export interface PaymentSettings {
  enabled: boolean
  environment: 'sandbox' | 'production'
  clientToken?: string
  /** The notification destination's secret; without it no delivery is accepted. */
  webhookSecret?: string
}

const failed = () => apiError(400, BILLING_TEXTS.webhookFailed, { code: ERROR_CODES.validation })

/** License tiers, usage, the subscription, checkout references and the payment webhook. */
export function billingRoutes(options: {
  auth: Authenticator
  permit: Permit
  billing: ReturnType<typeof createBillingService>
  /** What the provider's signed deliveries change. */
  events: ReturnType<typeof createEventProcessor>
  catalog: () => TierCatalog
  payments: PaymentSettings
  now: () => Date
}) {
  const { billing, events, permit } = options
  const app = areaRouter({ auth: options.auth })

  app.get(paths.account.licenseTiers, permit('read'), (c) => c.json(options.catalog().pricing()))
  app.get(paths.account.usage, permit('read'), async (c) => c.json(await billing.usage(orgOf(c))))
  app.get(paths.payouts.subscription, permit('read'), async (c) =>
    c.json(await billing.subscription(orgOf(c))),
  )
  app.get(paths.payouts.config, permit('read'), (c) => {
    const body: PaymentConfig = {
      enabled: options.payments.enabled,
      environment: options.payments.environment,
      client_token: options.payments.enabled ? (options.payments.clientToken ?? null) : null,
      sales_url: options.catalog().salesUrl,
    }
    return c.json(body)
  })
  app.post(paths.payouts.checkout, permit('organization.manage'), async (c) => {
    const body = await jsonBody(c, checkoutRequestSchema)
    return c.json(await billing.checkout(c.get('auth'), body.paddle_price_id), 201)
  })

  /**
   * Two callers: the provider's signed delivery (Paddle-Signature over the raw body), and the
   * landing page's {data} (a transaction id), which only reads what a verified delivery recorded,
   * for a signed-in caller and that caller's organisation only (401 without a session).
   */
  const landing = (c: Context<AuthEnv>, next: Next) =>
    c.req.header('paddle-signature') === undefined ? app.guard(c, next) : next()
  app.open.post(paths.payouts.webhook, landing, async (c) => {
    const log = c.get('log')
    const header = c.req.header('paddle-signature')
    if (header === undefined) {
      const body = safeParse(payoutConfirmSchema, await c.req.json().catch(() => null))
      if (!body.success) throw failed()
      const result = await billing.confirm(orgOf(c), body.data.data)
      return c.json(result, result.status === 'processed' ? 200 : 202)
    }
    const secret = options.payments.webhookSecret
    const raw = await c.req.text()
    if (!secret) {
      log.warn('payment webhook delivery refused: PADDLE_WEBHOOK_SECRET is not set')
      throw failed()
    }
    const check = verifySignature(secret, header, raw, options.now().getTime())
    if (!check.ok) {
      log.warn({ reason: check.reason }, 'payment webhook signature refused')
      throw failed()
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      throw failed()
    }
    const event = safeParse(notificationSchema, parsed)
    if (!event.success) throw failed()
    const outcome = await events.apply(event.data)
    log.info(
      { eventId: event.data.event_id, type: event.data.event_type, outcome },
      'payment event',
    )
    return c.json({ status: outcome })
  })

  return app.app
}
