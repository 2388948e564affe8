import type { DataItem, QaItem } from '../../contract/knowledge.ts'

/** The item editor's context, events, what it emits and what a save sends. */

export type ItemMode = 'qa' | 'data'
export type ItemField =
  | 'question'
  | 'answer'
  | 'dropdown_value'
  | 'title'
  | 'value'
  | 'tags'
  | 'source'
  /** A Q&A item's owner: a person's id, or '' for nobody. */
  | 'owner_id'
  /** A Q&A item's own review cycle in days (used when `ownCycle` is on). */
  | 'review_cycle_days'
  /** The product a Q&A item speaks for (issue 38): a product's id, or '' for all products. */
  | 'product_id'
export type ItemValues = Record<ItemField, string>

/** The owner a Q&A item had when its editing began. */
export interface ItemOwner {
  id: number
  name: string
}

export interface ItemEditorContext {
  mode: ItemMode
  id: number | null
  values: ItemValues
  errors: Partial<Record<ItemField, string>>
  failure: string | null
  /** The Q&A item's owner before editing (null: none, or a new item). */
  owner: ItemOwner | null
  /** The Q&A item sets its own review cycle; off: the organisation's. */
  ownCycle: boolean
}

export type ItemEditorEvents =
  | { type: 'create'; mode: ItemMode }
  | { type: 'edit'; mode: 'qa'; item: QaItem }
  | { type: 'edit'; mode: 'data'; item: DataItem }
  | { type: 'change'; field: ItemField; value: string }
  /** Own review cycle on (starting from `days` when none is typed) or off. */
  | { type: 'cycle.own'; own: boolean; days?: number }
  | { type: 'submit' }
  | { type: 'close' }
  | { type: 'delete.request'; mode: ItemMode; id: number }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }

export type ItemEditorEmitted =
  | { type: 'saved'; mode: ItemMode }
  | { type: 'deleted'; mode: ItemMode }

export type SaveItemInput =
  | {
      mode: 'qa'
      id: number | null
      body: {
        question: string
        answer: string
        dropdown_value: string | null
        tags: string[]
        source: string | null
        /** Sent on create, and on edit only when it changed. */
        owner_id?: number | null
        review_cycle_days: number | null
        /** null: all products (the whole company). */
        product_id: number | null
      }
    }
  | {
      mode: 'data'
      id: number | null
      body: { title: string; value: string; tags: string[]; source: string | null }
    }
