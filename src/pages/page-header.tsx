import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

const wrap = css({
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'flex-start', sm: 'flex-end' },
  justifyContent: 'space-between',
  gap: '4',
  mb: '6',
})
const lead = css({ textStyle: 'sm', color: 'fg.muted', maxW: '2xl', mt: '1' })
const heading = css({ textStyle: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })

export function PageHeader(props: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className={wrap}>
      <div>
        <h2 className={heading}>{props.title}</h2>
        {props.description && <p className={lead}>{props.description}</p>}
      </div>
      {props.actions}
    </div>
  )
}
