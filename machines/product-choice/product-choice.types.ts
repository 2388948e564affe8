import type { Product } from '../../contract/products.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the products are being read; `busy`: a choice is being set. */
export type ProductChoiceTags = 'loading' | 'busy'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ProductChoiceEvents = { type: 'retry' } | { type: 'choose'; productId: number | null }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

export interface AssignProductInput extends ProductTarget {
  /** null: the whole company (All products). */
  productId: number | null
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface ProductChoiceInput {
  /** Where a choice is set at once; without one, the select only offers the products. */
  target?: ProductTarget
}

/** What a choice changes: one questionnaire or one repository file. */
export interface ProductTarget {
  kind: 'questionnaire' | 'file'
  id: number
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ProductChoiceContext {
  target: ProductTarget | null
  /** null until read (or when they could not be read). */
  products: Product[] | null
  /** What was chosen here, once the server took it; undefined: nothing yet. */
  assigned: number | null | undefined
  pending: number | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type ProductChoiceEmitted = { type: 'assigned'; productId: number | null }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ProductChoiceSchema {
  context: ProductChoiceContext
  events: ProductChoiceEvents
  emitted: ProductChoiceEmitted
  input: ProductChoiceInput | undefined
  tags: ProductChoiceTags
}
