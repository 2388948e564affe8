import { X } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import type { Customer } from '../../../contract/collaboration.ts'
import { WORK_STATUS_LABELS, WORK_STATUSES } from '../../../contract/work.ts'
import {
  ORDER_LABELS,
  type QuestionnaireFilters,
} from '../../../machines/questionnaire-list/index.ts'
import { type ProductChoiceRef, ProductFilter } from '../../components/product-select.tsx'
import { filterPill, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { PillSegments } from '../../components/ui/segment-group.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'

const bar = cx(toolbar, css({ mb: '3', rowGap: '2' }))
const status = css({ w: { base: 'calc(50% - token(spacing.1))', sm: '10rem' } })
const customer = css({ w: { base: 'calc(50% - token(spacing.1))', sm: '12rem' } })
const order = css({ w: { base: 'calc(50% - token(spacing.1))', sm: '12rem' } })
const overdue = cx(filterPill, css({ h: '9', px: '3', textStyle: 'sm', colorPalette: 'red' }))
const end = css({ ml: { base: '0', md: 'auto' } })

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  ...WORK_STATUSES.map((value) => ({ value, label: WORK_STATUS_LABELS[value] })),
]
const OWNER_OPTIONS = [
  { value: 'anyone', label: 'Anyone' },
  { value: 'me', label: 'Mine' },
]
const ORDER_OPTIONS = Object.entries(ORDER_LABELS).map(([value, label]) => ({
  value,
  label: `Sort: ${label}`,
}))

/**
 * The questionnaires list's filters (status, owner, customer, overdue only) and order; each
 * change is sent to the list, which fetches again.
 */
export function ListFilters(props: {
  filters: QuestionnaireFilters
  filtered: boolean
  customers: Customer[]
  onChange: (filters: Partial<QuestionnaireFilters>) => void
  onClear: () => void
  /** The organisation's products, to filter by (issue 38). */
  products: ProductChoiceRef
  children?: React.ReactNode
}) {
  const { filters, onChange } = props
  const customerOptions = [
    { value: '', label: 'All customers' },
    ...props.customers.map((entry) => ({ value: String(entry.id), label: entry.name })),
  ]
  return (
    <fieldset className={bar}>
      <legend className={css({ srOnly: true })}>Filters</legend>
      <SimpleSelect
        label="Status"
        hideLabel
        className={status}
        options={STATUS_OPTIONS}
        value={filters.work_status}
        onChange={(value) =>
          onChange({ work_status: value as QuestionnaireFilters['work_status'] })
        }
      />
      <SimpleSelect
        label="Customer"
        hideLabel
        className={customer}
        options={customerOptions}
        value={filters.customer_id === null ? '' : String(filters.customer_id)}
        onChange={(value) => onChange({ customer_id: value ? Number(value) : null })}
      />
      <ProductFilter
        choices={props.products}
        size="sm"
        className={customer}
        value={filters.product === null ? '' : String(filters.product)}
        onChange={(value) =>
          onChange({ product: value === '' ? null : value === 'none' ? 'none' : Number(value) })
        }
      />
      <PillSegments
        label="Owner"
        options={OWNER_OPTIONS}
        value={filters.owner}
        onChange={(value) => onChange({ owner: value as QuestionnaireFilters['owner'] })}
      />
      <button
        type="button"
        className={overdue}
        aria-pressed={filters.overdue}
        onClick={() => onChange({ overdue: !filters.overdue })}
      >
        Overdue only
      </button>
      <SimpleSelect
        label="Sort"
        hideLabel
        className={order}
        options={ORDER_OPTIONS}
        value={filters.order}
        onChange={(value) => onChange({ order: value as QuestionnaireFilters['order'] })}
      />
      {props.filtered && (
        <Button size="sm" variant="ghost" onClick={props.onClear}>
          <X /> Clear filters
        </Button>
      )}
      {props.children && <div className={end}>{props.children}</div>}
    </fieldset>
  )
}
