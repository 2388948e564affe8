import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'

const wrap = css({
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'flex-start', sm: 'flex-end' },
  justifyContent: 'space-between',
  gap: '4',
  mb: '6',
})
const lead = css({ textStyle: 'sm', color: 'fg.muted', maxW: '2xl', mt: '1' })
const leadAlone = css({ mt: '0' })
const heading = css({ textStyle: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })

/**
 * What a page says under the top bar: its lead and actions. The top bar already shows the page's
 * title, so a heading is given only when it names something else (a customer, a greeting).
 */
export function PageHeader(props: { title?: string; description?: string; actions?: ReactNode }) {
  return (
    <div className={wrap}>
      <div>
        {props.title && <h2 className={heading}>{props.title}</h2>}
        {props.description && (
          <p className={props.title ? lead : cx(lead, leadAlone)}>{props.description}</p>
        )}
      </div>
      {props.actions}
    </div>
  )
}
