import type { QuestionnaireListQuery } from '../../contract/questionnaires.ts'
import type { WorkStatus } from '../../contract/work.ts'

/**
 * What the questionnaires list is narrowed to and ordered by (issue 29): the work status, the
 * owner (anyone or me), the customer, overdue only; newest first, by due date or by name.
 */
export interface QuestionnaireFilters {
  work_status: WorkStatus | 'all'
  owner: 'anyone' | 'me'
  customer_id: number | null
  overdue: boolean
  order: 'created' | 'due_date' | 'name'
  /** Issue 38: a product's id, 'none' for those answered for all products, or null for any. */
  product: number | 'none' | null
}

export const DEFAULT_FILTERS: QuestionnaireFilters = {
  work_status: 'all',
  owner: 'anyone',
  customer_id: null,
  overdue: false,
  order: 'created',
  product: null,
}

export const ORDER_LABELS: Record<QuestionnaireFilters['order'], string> = {
  created: 'Newest first',
  due_date: 'Due date',
  name: 'Name',
}

/** Whether anything narrows the list (the order does not). */
export const isFiltered = (filters: QuestionnaireFilters) =>
  filters.work_status !== 'all' ||
  filters.owner !== 'anyone' ||
  filters.customer_id !== null ||
  filters.overdue ||
  filters.product !== null

/** The list call's query for these filters: only what differs from "everything, newest first". */
export function listQuery(filters: QuestionnaireFilters): QuestionnaireListQuery {
  return {
    page_size: 200,
    ...(filters.work_status !== 'all' && { work_status: filters.work_status }),
    ...(filters.owner === 'me' && { owner: 'me' as const }),
    ...(filters.customer_id !== null && { customer_id: filters.customer_id }),
    ...(filters.overdue && { overdue: 'true' as const }),
    ...(filters.order !== 'created' && { order: filters.order }),
    ...(filters.product !== null && { product: filters.product }),
  }
}
