import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { wrap } from 'styled-system/patterns'
import { FRESHNESS_LABELS, FRESHNESS_STATES } from '../../../contract/freshness.ts'
import type { ItemListFilters, OwnerFilter } from '../../../machines/item-list/index.ts'
import { filterPill, filterPills } from '../../components/styles.ts'

const groups = wrap({ rowGap: '2', columnGap: '5', align: 'center', mb: '3' })
const legend = css({
  alignSelf: 'center',
  textStyle: 'xs',
  color: 'fg.muted',
  fontWeight: 'medium',
  mr: '0.5',
})

const FRESHNESS_CHOICES = [
  { value: null, label: 'All' },
  ...FRESHNESS_STATES.map((value) => ({ value, label: FRESHNESS_LABELS[value] })),
]
const OWNER_CHOICES: { value: OwnerFilter | null; label: string }[] = [
  { value: null, label: 'Anyone' },
  { value: 'me', label: 'Mine' },
  { value: 'none', label: 'No owner' },
]

/** The Q&A list's filters: by freshness (All, Fresh, Review due, Stale) and by owner. */
export function FreshnessFilters(props: {
  filters: ItemListFilters
  onChange: (filters: Partial<ItemListFilters>) => void
  /** Beside them: the product filter (issue 38). */
  children?: ReactNode
}) {
  return (
    <div className={groups}>
      <fieldset aria-label="Freshness" className={filterPills}>
        <span className={legend} aria-hidden>
          Freshness
        </span>
        {FRESHNESS_CHOICES.map((choice) => (
          <button
            key={choice.label}
            type="button"
            className={filterPill}
            aria-pressed={props.filters.freshness === choice.value}
            onClick={() => props.onChange({ freshness: choice.value })}
          >
            {choice.label}
          </button>
        ))}
      </fieldset>
      <fieldset aria-label="Owner" className={filterPills}>
        <span className={legend} aria-hidden>
          Owner
        </span>
        {OWNER_CHOICES.map((choice) => (
          <button
            key={choice.label}
            type="button"
            className={filterPill}
            aria-pressed={props.filters.owner === choice.value}
            onClick={() => props.onChange({ owner: choice.value })}
          >
            {choice.label}
          </button>
        ))}
      </fieldset>
      {props.children}
    </div>
  )
}
