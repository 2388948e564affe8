import { css, cx } from 'styled-system/css'

const mark = css({
  display: 'grid',
  placeItems: 'center',
  borderRadius: 'lg',
  bg: 'colorPalette.default',
  color: 'colorPalette.fg',
  flexShrink: 0,
})

/** The Quire mark: a page with a folded corner tail, drawn as a 'Q'. */
export function LogoMark(props: { size?: number; className?: string }) {
  const size = props.size ?? 32
  return (
    <span className={cx(mark, props.className)} style={{ width: size, height: size }} aria-hidden>
      <svg viewBox="0 0 32 32" width={size * 0.75} height={size * 0.75} role="presentation">
        <path
          d="M9 9h10a4 4 0 0 1 4 4v4a4 4 0 0 1-4 4h-2l4 3M9 9v12h8"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  )
}
