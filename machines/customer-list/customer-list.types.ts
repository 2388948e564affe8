import type { Customer } from '../../contract/collaboration.ts'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type CustomerListEvents =
  | { type: 'retry' }
  | { type: 'refresh' }
  | { type: 'create.open' }
  | { type: 'create.change'; field: CustomerField; value: string }
  | { type: 'create.submit' }
  | { type: 'create.close' }

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export type CustomerField = 'name' | 'domain'

export interface CustomerListContext {
  customers: Customer[]
  loaded: boolean
  error: string | null
  values: Record<CustomerField, string>
  errors: Partial<Record<CustomerField, string>>
  failure: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type CustomerListEmitted = { type: 'created'; customer: Customer }
