import { AlertTriangle, RotateCw } from 'lucide-react'
import { css } from 'styled-system/css'
import { Button } from '../components/ui/button.tsx'

/**
 * The two error screens of spec section 2: the generic one for the whole app and the 'Page Error'
 * fallback for a lazy page that fails to load or render.
 */

const screen = css({
  display: 'grid',
  placeItems: 'center',
  minH: '100dvh',
  p: '6',
  bg: 'bg.canvas',
})
const panel = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '3',
  textAlign: 'center',
  maxW: 'md',
})
const icon = css({
  display: 'grid',
  placeItems: 'center',
  w: '12',
  h: '12',
  borderRadius: 'full',
  bg: 'red.a3',
  color: 'red.11',
})
const title = css({ textStyle: 'xl', fontWeight: 'semibold', color: 'fg.default' })
const detail = css({ textStyle: 'sm', color: 'fg.muted' })
const actions = css({
  display: 'flex',
  gap: '3',
  mt: '2',
  flexWrap: 'wrap',
  justifyContent: 'center',
})

const reload = () => window.location.reload()

export function GenericErrorScreen(props: { onRetry?: () => void }) {
  return (
    <div className={screen} role="alert">
      <div className={panel}>
        <span className={icon}>
          <AlertTriangle size={24} aria-hidden />
        </span>
        <h1 className={title}>Something went wrong</h1>
        <p className={detail}>
          An unexpected error stopped this screen. Your data is safe; try again or reload the page.
        </p>
        <div className={actions}>
          <Button type="button" variant="outline" onClick={reload}>
            <RotateCw size={16} aria-hidden />
            Refresh Page
          </Button>
          <Button type="button" onClick={props.onRetry ?? reload}>
            Try Again
          </Button>
        </div>
      </div>
    </div>
  )
}

const pagePanel = css({ display: 'grid', placeItems: 'center', minH: '60vh', p: '6' })

export function PageErrorFallback() {
  return (
    <div className={pagePanel} role="alert">
      <div className={panel}>
        <span className={icon}>
          <AlertTriangle size={24} aria-hidden />
        </span>
        <h2 className={title}>Page Error</h2>
        <p className={detail}>This page could not be loaded. Refreshing usually fixes it.</p>
        <div className={actions}>
          <Button type="button" onClick={reload}>
            <RotateCw size={16} aria-hidden />
            Refresh Page
          </Button>
        </div>
      </div>
    </div>
  )
}
