import { css } from 'styled-system/css'
import { Spinner } from '../components/ui/spinner.tsx'

const screen = css({
  minH: '100dvh',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '3',
  color: 'fg.muted',
  textStyle: 'sm',
})

/** Shown by the guard while the session is checked (spec section 2, 'Guard'). */
export function VerifyingAuthentication() {
  return (
    <div className={screen}>
      <Spinner size="md" label="Verifying authentication" />
      <p>Verifying authentication...</p>
    </div>
  )
}
