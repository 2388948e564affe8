import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Product } from '../../contract/products.ts'
import * as view from '../../machines/products/index.ts'
import {
  aliasesOf,
  bodyOf,
  productsMachine,
  productsView,
  type SaveProductInput,
} from '../../machines/products/index.ts'
import { productOf } from '../fixtures/products.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const studio = productOf(4, 'Canvas Studio', {
  aliases: ['Studio', 'Arc'],
  description: 'Video platform',
  files: 2,
  qa_items: 12,
  questionnaires: 1,
})
const pending = pendingActors(productsMachine)
const failure = new Error('A product with that name already exists.')
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'add.open' },
  { type: 'edit.open', id: 4 },
  { type: 'form.edit', change: { name: 'Catalog' } },
  { type: 'form.submit' },
  { type: 'delete.ask', id: 4 },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.loadProducts', output: [studio] },
  { type: 'xstate.error.actor.loadProducts', error: new Error('offline') },
  { type: 'xstate.done.actor.saveProduct', output: { ...studio, name: 'Catalog' } },
  { type: 'xstate.error.actor.saveProduct', error: failure },
  { type: 'xstate.done.actor.deleteProduct' },
  { type: 'xstate.error.actor.deleteProduct', error: failure },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('productsMachine', () => {
  testEveryPath(pending, events, {
    view,
    // only the failed state shows its error; a retry keeps it in the context, hidden
    assertState: (s) => {
      if (s.matches('failed')) expect(view.productsView.listError(s)).toEqual(expect.any(String))
      else expect(view.productsView.listError(s)).toBeNull()
    },
    identity: (s) => [s.context.form.name.trim() !== '', s.context.action?.kind ?? null],
  })

  test('reads the aliases typed with commas, each once', () => {
    expect(aliasesOf(' Studio, arc ,, studio,Arc\nPro ')).toEqual(['Studio', 'arc', 'Pro'])
    expect(bodyOf({ name: ' Catalog ', aliases: '', description: ' Books ' })).toEqual({
      name: 'Catalog',
      aliases: [],
      description: 'Books',
    })
  })

  test('adds, edits and deletes a product; a refusal keeps the dialog with the server’s words', async () => {
    const saved: SaveProductInput[] = []
    let refuse = true
    const notices: string[] = []
    const actor = createActor(
      productsMachine.provide({
        actors: {
          loadProducts: fromPromise<Product[], void>(async () => [studio]),
          saveProduct: fromPromise<Product, SaveProductInput>(async ({ input }) => {
            saved.push(input)
            if (refuse) throw failure
            return { ...studio, id: input.id ?? 9, ...input.body, files: 0 }
          }),
          deleteProduct: fromPromise<void, { id: number }>(async () => {}),
        },
      }),
    )
    actor.on('changed', (event) => notices.push(event.notice))
    actor.start()
    await settle()
    expect(productsView.products(actor.getSnapshot()).map((p) => p.name)).toEqual(['Canvas Studio'])
    // a name is needed before anything is sent
    actor.send({ type: 'add.open' })
    actor.send({ type: 'form.submit' })
    expect(productsView.actionError(actor.getSnapshot())).toBe('Enter the product’s name')
    expect(saved).toEqual([])
    actor.send({ type: 'form.edit', change: { name: 'Catalog', aliases: 'Books, Shelf' } })
    actor.send({ type: 'form.submit' })
    await settle()
    expect(productsView.dialog(actor.getSnapshot())).toBe('add')
    expect(productsView.actionError(actor.getSnapshot())).toBe(failure.message)
    refuse = false
    actor.send({ type: 'form.submit' })
    await settle()
    expect(saved.at(-1)).toEqual({
      id: null,
      body: { name: 'Catalog', aliases: ['Books', 'Shelf'], description: '' },
    })
    expect(productsView.dialog(actor.getSnapshot())).toBeNull()
    expect(productsView.products(actor.getSnapshot()).map((p) => p.name)).toEqual([
      'Canvas Studio',
      'Catalog',
    ])
    // editing starts from the product as it is
    actor.send({ type: 'edit.open', id: 4 })
    expect(productsView.form(actor.getSnapshot())).toEqual({
      name: 'Canvas Studio',
      aliases: 'Studio, Arc',
      description: 'Video platform',
    })
    actor.send({ type: 'form.edit', change: { name: 'Studio Pro' } })
    actor.send({ type: 'form.submit' })
    await settle()
    expect(saved.at(-1)?.id).toBe(4)
    actor.send({ type: 'delete.ask', id: 4 })
    expect(productsView.target(actor.getSnapshot())?.name).toBe('Studio Pro')
    actor.send({ type: 'delete.confirm' })
    await settle()
    expect(productsView.products(actor.getSnapshot()).map((p) => p.name)).toEqual(['Catalog'])
    expect(notices).toEqual(['Catalog added', 'Studio Pro saved', 'Studio Pro deleted'])
  })
})
