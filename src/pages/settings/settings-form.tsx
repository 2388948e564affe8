import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { RetryAlert } from '../../components/row-actions.tsx'
import { muted, toolbar } from '../../components/styles.ts'

const form = css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '3', maxW: '2xl' })
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const errorText = css({ textStyle: 'sm', color: 'fg.error' })

/**
 * A settings section of one form: its heading, the failure to read it (with Retry), Loading...,
 * then the form, its error, an optional status line and its actions.
 */
export function SettingsForm({
  id,
  title,
  failure,
  loading,
  error,
  status,
  actions,
  onRetry,
  onSubmit,
  children,
}: {
  id: string
  title: string
  /** What could not be read (null: it was). */
  failure: string | null
  loading: boolean
  error: string | null | undefined
  status?: ReactNode
  actions: ReactNode
  onRetry: () => void
  onSubmit: () => void
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={heading}>
        {title}
      </h2>
      {failure ? (
        <div className={css({ mt: '3' })}>
          <RetryAlert error={failure} onRetry={onRetry} />
        </div>
      ) : loading ? (
        <p className={`${muted} ${css({ mt: '3' })}`}>Loading...</p>
      ) : (
        <form
          className={form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            onSubmit()
          }}
        >
          {children}
          {error && (
            <p className={errorText} role="alert">
              {error}
            </p>
          )}
          {status}
          <div className={toolbar}>{actions}</div>
        </form>
      )}
    </section>
  )
}
