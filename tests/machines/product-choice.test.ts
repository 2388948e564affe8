import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Product } from '../../contract/products.ts'
import * as view from '../../machines/product-choice/index.ts'
import {
  type AssignProductInput,
  productChoiceMachine,
  productChoiceView,
  productName,
  productOptions,
} from '../../machines/product-choice/index.ts'
import { productOf } from '../fixtures/products.ts'
import { testEveryPath } from './every-path.ts'

const catalog = productOf(3, 'Catalog')
const never = <T>() => new Promise<T>(() => {})
const actors = {
  loadProductChoices: fromPromise<Product[], void>(never),
  assignProduct: fromPromise<void, AssignProductInput>(never),
}
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'choose', productId: 3 },
  { type: 'xstate.done.actor.loadProductChoices', output: [catalog] },
  { type: 'xstate.error.actor.loadProductChoices', error: new Error('offline') },
  { type: 'xstate.done.actor.assignProduct' },
  { type: 'xstate.error.actor.assignProduct', error: new Error('That product was not found.') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('productChoiceMachine', () => {
  testEveryPath(productChoiceMachine.provide({ actors }), events, {
    view,
    input: { target: { kind: 'questionnaire', id: 8 } },
    title: 'with a target: every state and transition is reached by a replayed graph path',
  })

  test('offers All products then each product, and names a product by its id', () => {
    expect(productOptions([catalog])).toEqual([
      { value: '', label: 'All products' },
      { value: '3', label: 'Catalog' },
    ])
    expect(productName([catalog], 3)).toBe('Catalog')
    expect(productName([catalog], null)).toBe('All products')
  })

  test('sets the questionnaire’s product, and keeps the earlier one when refused', async () => {
    const sent: AssignProductInput[] = []
    let refuse = false
    const actor = createActor(
      productChoiceMachine.provide({
        actors: {
          loadProductChoices: fromPromise<Product[], void>(async () => [catalog]),
          assignProduct: fromPromise<void, AssignProductInput>(async ({ input }) => {
            sent.push(input)
            if (refuse) throw new Error('That product was not found.')
          }),
        },
      }),
      { input: { target: { kind: 'questionnaire', id: 8 } } },
    )
    const assigned: (number | null)[] = []
    actor.on('assigned', (event) => assigned.push(event.productId))
    actor.start()
    await settle()
    expect(productChoiceView.offered(actor.getSnapshot())).toBe(true)
    expect(productChoiceView.chosen(actor.getSnapshot())).toBeUndefined()
    actor.send({ type: 'choose', productId: 3 })
    expect(productChoiceView.chosen(actor.getSnapshot())).toBe(3)
    await settle()
    expect(sent).toEqual([{ kind: 'questionnaire', id: 8, productId: 3 }])
    expect(assigned).toEqual([3])
    refuse = true
    actor.send({ type: 'choose', productId: null })
    await settle()
    expect(productChoiceView.chosen(actor.getSnapshot())).toBe(3)
    expect(productChoiceView.error(actor.getSnapshot())).toBe('That product was not found.')
  })

  test('without a target it only offers the list', async () => {
    const actor = createActor(
      productChoiceMachine.provide({
        actors: {
          loadProductChoices: fromPromise<Product[], void>(async () => []),
          assignProduct: fromPromise<void, AssignProductInput>(async () => {
            throw new Error('not called')
          }),
        },
      }),
      { input: {} },
    ).start()
    await settle()
    expect(productChoiceView.offered(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'choose', productId: 3 })
    expect(actor.getSnapshot().matches({ choice: 'idle' })).toBe(true)
  })
})
