import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

const box = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  textAlign: 'center',
  gap: '3',
  px: '6',
  py: { base: '10', md: '16' },
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border.default',
  borderRadius: 'xl',
  bg: 'bg.default',
})
const badge = css({
  display: 'grid',
  placeItems: 'center',
  w: '12',
  h: '12',
  borderRadius: 'xl',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
})
const title = css({ textStyle: 'lg', fontWeight: 'semibold' })
const text = css({ textStyle: 'sm', color: 'fg.muted', maxW: 'md' })

/** What a page shows while it has nothing to list. */
export function EmptyState(props: {
  icon: LucideIcon
  title: string
  children: ReactNode
  action?: ReactNode
}) {
  const Icon = props.icon
  return (
    <section className={box}>
      <span className={badge}>
        <Icon size={22} aria-hidden />
      </span>
      <h3 className={title}>{props.title}</h3>
      <p className={text}>{props.children}</p>
      {props.action}
    </section>
  )
}
