import { fromPromise } from 'xstate'
import { paths } from '../../contract/paths.ts'
import {
  type Product,
  productAssignResultSchema,
  productListSchema,
  productSchema,
} from '../../contract/products.ts'
import type { AssignProductInput } from '../../machines/product-choice/index.ts'
import type { SaveProductInput } from '../../machines/products/index.ts'
import { type ApiClient, api } from './client.ts'

/** The organisation's products, by name. */
const listProducts = (client: ApiClient) =>
  fromPromise<Product[], void>(async ({ signal }) => {
    const list = await client.get(paths.products.list, productListSchema, { signal })
    return list.results
  })

/** The real side effects of Settings → Products: the calls under /products/. */
export function productActors(client: ApiClient = api) {
  return {
    loadProducts: listProducts(client),
    saveProduct: fromPromise<Product, SaveProductInput>(({ input }) =>
      input.id === null
        ? client.post(paths.products.list, input.body, productSchema)
        : client.request(paths.products.item(input.id), productSchema, {
            method: 'PATCH',
            body: input.body,
          }),
    ),
    deleteProduct: fromPromise<void, { id: number }>(({ input }) =>
      client.requestVoid(paths.products.item(input.id), { method: 'DELETE' }),
    ),
  }
}

/** What a product select uses: the list, and setting a questionnaire's or a file's product. */
export function productChoiceActors(client: ApiClient = api) {
  return {
    loadProductChoices: listProducts(client),
    assignProduct: fromPromise<void, AssignProductInput>(async ({ input }) => {
      await client.post(
        paths.products.assign,
        {
          product_id: input.productId,
          ...(input.kind === 'file' ? { file_ids: [input.id] } : { questionnaire_ids: [input.id] }),
        },
        productAssignResultSchema,
      )
    }),
  }
}
