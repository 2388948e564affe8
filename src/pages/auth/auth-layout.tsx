import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { LogoMark } from '../../app/logo.tsx'
import { callout, formStack, grid2 } from '../../components/form-styles.ts'

/**
 * The frame of every public account screen: the brand, a title, optional lead text, the content
 * and a footer. Pages put their machine-driven forms inside. Written with css() only: /login loads
 * this first, without Panda's pattern runtime.
 */

const screen = css({
  display: 'grid',
  placeItems: 'center',
  minH: '100dvh',
  px: '4',
  py: { base: '6', sm: '10' },
  bg: 'bg.canvas',
  backgroundImage:
    'radial-gradient(60rem 30rem at 50% -10%, var(--colors-color-palette-a3), transparent 70%)',
})
const card = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '5',
  w: 'full',
  maxW: '26rem',
  p: { base: '6', sm: '8' },
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: '2xl',
  bg: 'bg.default',
  boxShadow: 'lg',
})
/** A page to read (the legal pages) rather than a form. */
const wideCard = css({ maxW: '46rem' })
const brand = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2.5',
  fontWeight: 'semibold',
  textStyle: 'md',
})
const heading = css({ display: 'flex', flexDirection: 'column', gap: '1.5' })
const title = css({ textStyle: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })
const lead = css({ textStyle: 'sm', color: 'fg.muted' })
const footer = css({ textStyle: 'sm', color: 'fg.muted', textAlign: 'center' })

export const authStyles = {
  form: formStack,
  row: grid2,
  link: css({
    color: 'colorPalette.text',
    fontWeight: 'medium',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
  }),
  /** A message inside a form: an error in red, anything else in the accent colour. */
  alert: callout({ tone: 'error' }),
  notice: callout({ tone: 'info' }),
  muted: css({ textStyle: 'sm', color: 'fg.muted' }),
  actions: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  center: css({
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '3',
    textAlign: 'center',
  }),
}

export function AuthLayout(props: {
  title: string
  lead?: ReactNode
  children: ReactNode
  footer?: ReactNode
  wide?: boolean
}) {
  return (
    <main className={screen}>
      <section className={props.wide ? cx(card, wideCard) : card} aria-labelledby="auth-title">
        <div className={brand}>
          <LogoMark size={28} />
          Quire
        </div>
        <div className={heading}>
          <h1 id="auth-title" className={title}>
            {props.title}
          </h1>
          {props.lead && <p className={lead}>{props.lead}</p>}
        </div>
        {props.children}
        {props.footer && <div className={footer}>{props.footer}</div>}
      </section>
    </main>
  )
}

const backLink = css({ alignSelf: 'center', textStyle: 'sm' })

/** The 'Back to Login' link: in a screen's footer, or on its own under a result. */
export function BackToLogin(props: { alone?: boolean }) {
  return (
    <Link to="/login" className={cx(authStyles.link, props.alone && backLink)}>
      Back to Login
    </Link>
  )
}
