import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { callout } from '../../components/form-styles.ts'
import { RetryAlert } from '../../components/row-actions.tsx'

const sectionGrid = css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })
const header = css({ display: 'flex', gap: '3', justifyContent: 'space-between', flexWrap: 'wrap' })
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted', textStyle: 'sm', mt: '1', maxW: '2xl' })

/**
 * A settings section that lists what the organisation made (API keys, webhook endpoints): its
 * heading and introduction beside the button that makes a new one, an error of the last action,
 * then the list, or the failure to read it with Retry. `children` (its dialogs) always render.
 */
export function ListSection(props: {
  id: string
  title: string
  intro: ReactNode
  /** The button that makes a new one. */
  action: ReactNode
  /** The last action's error, when the page shows it (not inside a dialog). */
  notice: string | null
  failed: boolean
  error: string | null
  onRetry: () => void
  list: ReactNode
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${props.id}-heading`} className={sectionGrid}>
      <div className={header}>
        <div>
          <h2 id={`${props.id}-heading`} className={heading}>
            {props.title}
          </h2>
          <p className={intro}>{props.intro}</p>
        </div>
        {props.action}
      </div>
      {props.notice && (
        <p className={callout({ tone: 'error' })} role="alert">
          {props.notice}
        </p>
      )}
      {props.failed ? <RetryAlert error={props.error ?? ''} onRetry={props.onRetry} /> : props.list}
      {props.children}
    </section>
  )
}
