import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { LogoMark } from '../../app/logo.tsx'

const screen = css({
  minH: '100dvh',
  display: 'grid',
  placeItems: 'center',
  p: '4',
  bg: 'bg.canvas',
})
const card = css({
  w: 'full',
  maxW: 'md',
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: { base: '6', sm: '8' },
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: '2xl',
  bg: 'bg.default',
  boxShadow: 'lg',
})
const brand = css({ display: 'flex', alignItems: 'center', gap: '2.5', fontWeight: 'semibold' })
const title = css({ textStyle: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em' })
const text = css({ textStyle: 'sm', color: 'fg.muted' })
const link = css({ textStyle: 'sm', color: 'colorPalette.text', fontWeight: 'medium' })

/** A public screen's frame: the brand, a title and its content. */
export function PublicCard(props: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className={screen}>
      <section className={card}>
        <div className={brand}>
          <LogoMark size={28} />
          Quire
        </div>
        <h1 className={title}>{props.title}</h1>
        {props.children}
        {props.footer}
      </section>
    </main>
  )
}

/** Public routes whose flows arrive with a later release render this until then. */
export function PublicPlaceholder(props: { title: string }) {
  return (
    <PublicCard
      title={props.title}
      footer={
        props.title === 'Sign in' ? null : (
          <Link to="/login" className={link}>
            Back to Login
          </Link>
        )
      }
    >
      <p className={text}>This screen is not available in this version of Quire yet.</p>
    </PublicCard>
  )
}
