import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'

const bar = flex({
  gap: '1',
  overflowX: 'auto',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
})
const tabClass = css({
  px: '3',
  py: '2',
  textStyle: 'sm',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  '&[aria-selected=true]': { color: 'fg.default', borderColor: 'colorPalette.default' },
})

/**
 * A row of tabs over a line, the chosen one underlined (the questionnaire's tabs, the knowledge
 * base's sections). It scrolls sideways when the tabs do not fit. `className` and `tabClassName`
 * add to the bar's and each tab's styles.
 */
export function TabBar<Id extends string | number>(props: {
  label: string
  tabs: readonly { id: Id; content: ReactNode }[]
  selected: Id | null
  onSelect: (id: Id) => void
  className?: string
  tabClassName?: string
}) {
  return (
    <div className={cx(bar, props.className)} role="tablist" aria-label={props.label}>
      {props.tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === props.selected}
          className={cx(tabClass, props.tabClassName)}
          onClick={() => props.onSelect(tab.id)}
        >
          {tab.content}
        </button>
      ))}
    </div>
  )
}
