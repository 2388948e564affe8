import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { BILLING_TEXTS, type PricingTier } from '../../contract/billing.ts'
import {
  type CreateReferenceOutput,
  checkoutMachine,
  type OpenOverlayInput,
} from '../../machines/checkout/index.ts'
import * as view from '../../machines/pricing/index.ts'
import {
  cardsOf,
  type LoadPlansOutput,
  pricingMachine,
  pricingView,
} from '../../machines/pricing/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const tier = (base: string, period: 'monthly' | 'yearly', price: number, priceId: string | null) =>
  ({
    id: `${base.toLowerCase()}-${period}`,
    name: `${base} (${period})`,
    base_name: base,
    tier: base.toLowerCase(),
    description: '',
    price,
    billing_period: period,
    paddle_price_id: priceId,
    popular: base === 'Team',
    highlighted: false,
    features: [],
    max_users: 1,
    max_repository: 1,
    max_questionnaire: 1,
    max_answers: 1,
    multi_language: false,
    is_evaluation: false,
  }) satisfies PricingTier
const plans: LoadPlansOutput = {
  tiers: [
    tier('Business', 'monthly', 299, 'pri_b_m'),
    tier('Team', 'yearly', 950, 'pri_t_y'),
    tier('Free', 'monthly', 0, null),
    tier('Team', 'monthly', 99, 'pri_t_m'),
    tier('Business', 'yearly', 2870, 'pri_b_y'),
    tier('Free', 'yearly', 0, null),
  ],
  currentTier: 'free',
  salesUrl: 'mailto:sales@quire.test',
}
const pending = pendingActors(pricingMachine, { checkout: pendingActors(checkoutMachine) })
const events: AnyEventObject[] = [
  { type: 'open' },
  { type: 'close' },
  { type: 'period.set', period: 'yearly' },
  { type: 'choose', priceId: 'pri_t_m' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadPlans', output: plans },
  { type: 'xstate.error.actor.loadPlans', error: new Error('offline') },
  { type: 'xstate.done.actor.checkout', output: { opened: true } },
  {
    type: 'xstate.done.actor.checkout',
    output: { opened: false, error: BILLING_TEXTS.providerNotInitialized },
  },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('pricingMachine', () => {
  testEveryPath(pending, events, { view, identity: (snapshot) => [snapshot.context.period] })

  test('sorts the cards of the chosen period by ascending price', () => {
    expect(cardsOf(plans.tiers, 'monthly').map((card) => card.price)).toEqual([0, 99, 299])
    expect(cardsOf(plans.tiers, 'yearly').map((card) => card.id)).toEqual([
      'free-yearly',
      'team-yearly',
      'business-yearly',
    ])
  })

  test('a failed checkout leaves its reason in the open dialog; an opened one closes it', async () => {
    const started: OpenOverlayInput[] = []
    let enabled = false
    const actor = createActor(
      pricingMachine.provide({
        actors: {
          loadPlans: fromPromise<LoadPlansOutput>(async () => plans),
          checkout: checkoutMachine.provide({
            actors: {
              initProvider: fromPromise<undefined>(async () => {
                if (!enabled) throw new Error(BILLING_TEXTS.providerNotInitialized)
              }),
              createReference: fromPromise<CreateReferenceOutput, { priceId: string }>(
                async ({ input }) => ({ reference: `qr_${input.priceId}`, email: 'x@acme.test' }),
              ),
              openOverlay: fromPromise<void, OpenOverlayInput>(async ({ input }) => {
                started.push(input)
              }),
            },
          }),
        },
      }),
      { input: { email: 'ada@acme.test' } },
    ).start()
    const view = () => {
      const snapshot = actor.getSnapshot()
      return {
        open: pricingView.open(snapshot),
        screen: pricingView.screen(snapshot),
        error: pricingView.checkoutError(snapshot),
      }
    }
    actor.send({ type: 'open', reason: 'Your license allows 3 users.' })
    expect(view()).toMatchObject({ open: true, screen: 'loading' })
    await settle()
    expect(pricingView.reason(actor.getSnapshot())).toBe('Your license allows 3 users.')
    actor.send({ type: 'period.set', period: 'yearly' })
    actor.send({ type: 'choose', priceId: 'pri_t_y' })
    await settle()
    expect(started).toEqual([])
    expect(view()).toEqual({
      open: true,
      screen: 'plans',
      error: 'Payment provider is not initialized',
    })
    enabled = true
    actor.send({ type: 'choose', priceId: 'pri_t_y' })
    await settle()
    await settle()
    expect(view().open).toBe(false)
    expect(started).toEqual([
      {
        priceId: 'pri_t_y',
        quantity: 1,
        reference: 'qr_pri_t_y',
        email: 'ada@acme.test',
        countryCode: null,
      },
    ])
  })

  test("'Try Again' after a load failure reloads the page", async () => {
    const actor = createActor(
      pricingMachine.provide({
        actors: {
          loadPlans: fromPromise<LoadPlansOutput>(() => Promise.reject(new Error('offline'))),
        },
      }),
      { input: {} },
    ).start()
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    actor.send({ type: 'open' })
    await settle()
    expect(pricingView.screen(actor.getSnapshot())).toBe('failed')
    actor.send({ type: 'retry' })
    expect(emitted).toEqual([{ type: 'reload' }])
  })
})
