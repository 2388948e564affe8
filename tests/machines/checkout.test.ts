import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, toPromise } from 'xstate'
import { BILLING_TEXTS } from '../../contract/billing.ts'
import {
  type CreateReferenceOutput,
  checkoutMachine,
  type OpenOverlayInput,
} from '../../machines/checkout/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(checkoutMachine)
const reference: CreateReferenceOutput = { reference: 'qr_abc', email: 'ada@acme.test' }
const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.initProvider' },
  {
    type: 'xstate.error.actor.initProvider',
    error: new Error(BILLING_TEXTS.providerNotInitialized),
  },
  { type: 'xstate.done.actor.createReference', output: reference },
  { type: 'xstate.error.actor.createReference', error: new Error('offline') },
  { type: 'xstate.done.actor.openOverlay' },
  { type: 'xstate.error.actor.openOverlay', error: new Error('blocked') },
]

describe('checkoutMachine', () => {
  testEveryPath(pending, events, {
    inputs: [{ priceId: 'pri_team' }],
    // no selectors: the pricing dialog reads the output. Every step runs a call until the end,
    // which says whether the overlay opened or why not
    assertState: (s) => {
      expect(s.hasTag('loading')).toBe(s.status === 'active')
      if (s.status === 'done') {
        expect(s.output).toEqual(
          s.matches('opened') ? { opened: true } : { opened: false, error: expect.any(String) },
        )
      }
    },
  })

  test('with the payment flag off it fails with the spec’s provider-not-initialised error', async () => {
    const actor = createActor(
      checkoutMachine.provide({
        actors: {
          initProvider: fromPromise<undefined>(async () => {
            throw new Error(BILLING_TEXTS.providerNotInitialized)
          }),
        },
      }),
      { input: { priceId: 'pri_team' } },
    ).start()
    expect(await toPromise(actor)).toEqual({
      opened: false,
      error: 'Payment provider is not initialized',
    })
  })

  test('opens the overlay for the price, quantity 1, with the reference, email and country', async () => {
    const opened: OpenOverlayInput[] = []
    const actor = createActor(
      checkoutMachine.provide({
        actors: {
          initProvider: fromPromise<undefined>(async () => undefined),
          createReference: fromPromise<CreateReferenceOutput, { priceId: string }>(
            async ({ input }) => {
              expect(input).toEqual({ priceId: 'pri_team' })
              return reference
            },
          ),
          openOverlay: fromPromise<void, OpenOverlayInput>(async ({ input }) => {
            opened.push(input)
          }),
        },
      }),
      { input: { priceId: 'pri_team', countryCode: 'DE' } },
    ).start()
    expect(await toPromise(actor)).toEqual({ opened: true })
    expect(opened).toEqual([
      {
        priceId: 'pri_team',
        quantity: 1,
        reference: 'qr_abc',
        email: 'ada@acme.test',
        countryCode: 'DE',
      },
    ])
  })
})
