import { Link, useRouterState } from '@tanstack/react-router'
import { LifeBuoy, Settings } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { vstack } from 'styled-system/patterns'
import { SIDEBAR_TOOLTIP_OPEN_DELAY_MS } from '../../../machines/constants.ts'
import { countPill, focusRing } from '../../components/styles.ts'
import { SimpleTooltip } from '../../components/ui'
import { LogoMark } from '../logo.tsx'
import { NAV_ITEMS, type NavItem } from './nav.ts'

/**
 * The navigation rail: logo to /, an icon per page with a tooltip, and at the bottom Support and
 * Settings. `compact` is the collapsed icon width; the slide-over uses the same rail.
 */

const rail = vstack({
  gap: '1',
  h: 'full',
  py: '3',
  '&[data-wide]': { alignItems: 'stretch', px: '3' },
})
const logoLink = cx(
  css({
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    mb: '3',
    borderRadius: 'lg',
    color: 'fg.default',
    textDecoration: 'none',
    '[data-wide] &': { justifyContent: 'flex-start', px: '1.5' },
  }),
  focusRing,
)
const wordmark = css({ textStyle: 'lg', fontWeight: 'semibold', letterSpacing: '-0.01em' })
const list = vstack({ gap: '0.5', w: 'full', '[data-wide] &': { alignItems: 'stretch' } })
const item = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  borderRadius: 'lg',
  color: 'fg.muted',
  transition: 'background 120ms, color 120ms',
  cursor: 'pointer',
  bg: 'transparent',
  border: 'none',
  textDecoration: 'none',
  _hover: { bg: 'gray.a3', color: 'fg.default' },
  _focusVisible: {
    outline: '2px solid',
    outlineColor: 'colorPalette.default',
    outlineOffset: '1px',
  },
  '&[data-status=active], &[aria-current=page]': {
    bg: 'colorPalette.a3',
    color: 'colorPalette.text',
  },
  _disabled: { opacity: 0.5, cursor: 'not-allowed', _hover: { bg: 'transparent' } },
})
/** Expanded: the icon and the page's name in a row, as wide as the rail. */
const itemWide = css({ w: 'full', h: '9', gap: '3', px: '2.5', justifyContent: 'flex-start' })
const itemCompact = css({ w: '9', h: '9' })
const caption = css({ textStyle: 'sm', fontWeight: 'medium', truncate: true })
const spacer = css({ flex: '1' })
const countBadge = cx(
  countPill,
  css({
    position: 'absolute',
    top: '50%',
    right: '2',
    transform: 'translateY(-50%)',
    bg: 'colorPalette.default',
    color: 'colorPalette.fg',
    '[data-compact] &': { top: '-1', right: '-1', transform: 'none' },
  }),
)
const withBadge = css({ position: 'relative' })

/** An item's tooltip, with its count when it has one ('My work: 3 due soon'). */
const labelWithCount = (label: string, count: number | undefined) =>
  count ? `${label}: ${count} due soon` : label

export function SidebarNav(props: {
  compact: boolean
  onNavigate?: () => void
  /** Opens the support ticket dialog. */
  onSupport?: () => void
  /** A count shown on an item (My work: overdue and due this week). */
  counts?: Partial<Record<NavItem['to'], number>>
}) {
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const size = 18
  const itemClass = cx(item, props.compact ? itemCompact : itemWide)
  const tip = (label: string, node: React.ReactElement) => (
    <SimpleTooltip
      content={label}
      openDelay={SIDEBAR_TOOLTIP_OPEN_DELAY_MS}
      closeDelay={0}
      interactive={false}
      positioning={{ placement: 'right', gutter: 10 }}
    >
      {node}
    </SimpleTooltip>
  )
  return (
    <nav className={rail} aria-label="Main" data-wide={props.compact ? undefined : ''}>
      <Link to="/" className={logoLink} aria-label="Quire home" onClick={props.onNavigate}>
        <LogoMark size={props.compact ? 28 : 30} />
        {!props.compact && (
          <span className={wordmark} aria-hidden>
            Quire
          </span>
        )}
      </Link>
      <ul className={list}>
        {NAV_ITEMS.map(({ to, label, icon: Icon }) => {
          const active = to === '/' ? pathname === '/' : pathname.startsWith(to)
          const count = props.counts?.[to]
          return (
            <li key={to}>
              {tip(
                labelWithCount(label, count),
                <Link
                  to={to}
                  className={cx(itemClass, withBadge)}
                  data-compact={props.compact ? '' : undefined}
                  aria-label={labelWithCount(label, count)}
                  aria-current={active ? 'page' : undefined}
                  onClick={props.onNavigate}
                >
                  <Icon size={size} aria-hidden strokeWidth={1.8} />
                  {!props.compact && <span className={caption}>{label}</span>}
                  {count ? (
                    <span className={countBadge} aria-hidden data-testid="nav-count">
                      {count > 99 ? '99+' : count}
                    </span>
                  ) : null}
                </Link>,
              )}
            </li>
          )
        })}
      </ul>
      <div className={spacer} />
      <ul className={list}>
        <li>
          {tip(
            'Support',
            <button
              type="button"
              className={itemClass}
              aria-label="Support"
              disabled={!props.onSupport}
              onClick={props.onSupport}
            >
              <LifeBuoy size={size} aria-hidden strokeWidth={1.8} />
              {!props.compact && <span className={caption}>Support</span>}
            </button>,
          )}
        </li>
        <li>
          {tip(
            'Settings',
            <Link
              to="/settings"
              className={itemClass}
              aria-label="Settings"
              aria-current={pathname.startsWith('/settings') ? 'page' : undefined}
              onClick={props.onNavigate}
            >
              <Settings size={size} aria-hidden strokeWidth={1.8} />
              {!props.compact && <span className={caption}>Settings</span>}
            </Link>,
          )}
        </li>
      </ul>
    </nav>
  )
}
