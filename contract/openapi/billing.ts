import * as z from 'zod/mini'
import {
  checkoutRequestSchema,
  checkoutResponseSchema,
  paymentConfigSchema,
  payoutConfirmationSchema,
  payoutConfirmSchema,
  pricingTiersSchema,
  subscriptionSchema,
  usageSchema,
} from '../billing.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

const P = paths.payouts

/** License tiers, usage, the subscription and the checkout provider's hand-off. */
export const billingOperations: OperationDocs = {
  [op('GET', paths.account.licenseTiers)]: {
    summary: 'The license tiers on sale, each at a monthly and a yearly price',
    access: 'read',
    response: pricingTiersSchema,
  },
  [op('GET', paths.account.usage)]: {
    summary: 'What the organisation uses of each limit of its license',
    access: 'read',
    response: usageSchema,
  },
  [op('GET', P.subscription)]: {
    summary: 'The organisation’s subscription, if it has a paid plan',
    access: 'read',
    response: subscriptionSchema,
  },
  [op('GET', P.config)]: {
    summary: 'The checkout provider’s public settings, and where Contact Sales leads',
    access: 'read',
    response: paymentConfigSchema,
  },
  [op('POST', P.checkout)]: {
    summary: 'A one-time reference that binds a checkout to the organisation',
    access: 'organization.manage',
    body: checkoutRequestSchema,
    response: checkoutResponseSchema,
    status: 201,
  },
  [op('POST', P.webhook)]: {
    summary: 'The payment provider’s signed notification, or the landing page’s confirmation',
    description:
      'With a `Paddle-Signature` header: the provider’s delivery, checked against the raw body, answered `{status}` with what was done. Without it: a signed-in person’s `{data}` (a transaction id), answered with what a verified delivery recorded, 200 when processed and 202 while pending.',
    access: 'public',
    body: payoutConfirmSchema,
    response: z.union([payoutConfirmationSchema, z.object({ status: z.string() })]),
  },
}
