import type { SnapshotFrom } from 'xstate'
import { PRODUCT_TEXTS, type Product } from '../../contract/products.ts'
import type { productChoiceMachine } from './product-choice.machine.ts'

export * from './product-choice.machine.ts'
export type * from './product-choice.types.ts'

type Snapshot = SnapshotFrom<typeof productChoiceMachine>

/** A select's choices: All products (the whole company, value ''), then each product. */
export function productOptions(products: Product[]) {
  return [
    { value: '', label: PRODUCT_TEXTS.companyWide },
    ...products.map((product) => ({ value: String(product.id), label: product.name })),
  ]
}

/** A select's value as a product id (null: All products), and back. */
export const productIdOf = (value: string) => (value ? Number(value) : null)
export const productValue = (productId: number | null | undefined) =>
  productId ? String(productId) : ''

/** A product's name, or 'All products' for none (or one deleted since). */
export const productName = (products: Product[] | null, productId: number | null | undefined) =>
  products?.find((product) => product.id === productId)?.name ?? PRODUCT_TEXTS.companyWide

const NO_NAMES = new Map<number, string>()
/** Each product's name by its id (one map per list read, so selecting it is stable). */
export const selectProductNames = (s: Snapshot) => namesOf(s.context.products)
const namesCache = new WeakMap<Product[], Map<number, string>>()
function namesOf(products: Product[] | null) {
  if (!products) return NO_NAMES
  let names = namesCache.get(products)
  if (!names) {
    names = new Map(products.map((product) => [product.id, product.name]))
    namesCache.set(products, names)
  }
  return names
}

/** What a product select reads, through `useView`. */
export const productChoiceView = {
  products: (s: Snapshot) => s.context.products ?? [],
  /** The select shows only when the organisation has products. */
  offered: (s: Snapshot) => (s.context.products?.length ?? 0) > 0,
  busy: (s: Snapshot) => s.hasTag('busy'),
  /** What the select shows: the choice under way, the one made here, else undefined. */
  chosen: (s: Snapshot) =>
    s.matches({ choice: 'assigning' }) ? s.context.pending : s.context.assigned,
  error: (s: Snapshot) => s.context.error,
}
