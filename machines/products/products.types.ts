import type { Product } from '../../contract/products.ts'

// ─── Context ────────────────────────────────────────────────────────────────

/** The add or edit dialog's fields as typed: the aliases are one comma-separated text. */
export interface ProductForm {
  name: string
  aliases: string
  description: string
}

/** What the dialog or the confirmation is about: a new product, or one product by its id. */
export type ProductAction =
  | { kind: 'add' }
  | { kind: 'edit'; id: number }
  | { kind: 'delete'; id: number }

export interface ProductsContext {
  products: Product[]
  loaded: boolean
  listError: string | null
  form: ProductForm
  action: ProductAction | null
  /** Why the server refused the last change, in its words. */
  actionError: string | null
}

// ─── Events ─────────────────────────────────────────────────────────────────

export type ProductsEvents =
  | { type: 'retry' }
  | { type: 'add.open' }
  | { type: 'edit.open'; id: number }
  | { type: 'form.edit'; change: Partial<ProductForm> }
  | { type: 'form.submit' }
  | { type: 'delete.ask'; id: number }
  | { type: 'delete.confirm' }
  | { type: 'dialog.close' }

/** After each change the server recorded: the page says so. */
export type ProductsEmitted = { type: 'changed'; notice: string }

// ─── Actor inputs ───────────────────────────────────────────────────────────

/** What an add or an edit sends. */
export interface ProductBody {
  name: string
  aliases: string[]
  description: string
}
export interface SaveProductInput {
  /** null: a new product. */
  id: number | null
  body: ProductBody
}
