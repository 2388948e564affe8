import { CircleAlertIcon, CircleCheckIcon, InfoIcon, TriangleAlertIcon, XIcon } from 'lucide-react'
import type { ComponentProps, PointerEventHandler, ReactNode } from 'react'
import { css, cva, cx } from 'styled-system/css'
import { toast } from 'styled-system/recipes'
import { Button } from './button'
import { IconButton } from './icon-button'

// Ark's toast needs Ark's toaster store; Quire's toasts are driven by an XState machine instead, so
// these are plain elements dressed with the preset's toast slot recipe.

export type ToastType = 'info' | 'success' | 'error' | 'warning'

const slots = toast()

// The recipe reads --height, --opacity, --scale, --x, --y and --z-index, which only Ark's toaster
// sets; a plain card takes its natural size instead. It also fits a phone-wide viewport.
const cardLayout = css({
  display: 'flex',
  alignItems: 'flex-start',
  gap: '3',
  width: 'full',
  minWidth: '0',
  height: 'auto',
  opacity: '1',
  scale: '1',
  translate: 'none',
  zIndex: 'auto',
  pe: '12',
  borderInlineStartWidth: '4px',
})

// The preset ships only the accent, gray and red palettes; green and amber are Radix's step 11
// (text contrast on bg.default) until the theme gains status palettes.
const tone = cva({
  variants: {
    type: {
      info: { '--toast-tone': '{colors.accent.default}' },
      success: { '--toast-tone': { base: '#218358', _dark: '#3dd68c' } },
      warning: { '--toast-tone': { base: '#ab6400', _dark: '#ffca16' } },
      error: { '--toast-tone': '{colors.red.9}' },
    },
  },
})

const indicator = css({ borderInlineStartColor: 'var(--toast-tone)' })
const iconStyle = css({ color: 'var(--toast-tone)', flexShrink: '0', width: '5', height: '5' })
const textColumn = css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: '0' })
const closePosition = css({ position: 'absolute', top: '3', insetEnd: '3' })

const icons = {
  info: InfoIcon,
  success: CircleCheckIcon,
  warning: TriangleAlertIcon,
  error: CircleAlertIcon,
} as const satisfies Record<ToastType, unknown>

export type ToastCardProps = {
  title: ReactNode
  description?: ReactNode
  /** Colours the edge and icon; `error` also makes the card an assertive `alert`. */
  type?: ToastType
  /** With `onAction`, renders a small action button under the text. */
  actionLabel?: ReactNode
  onAction?: () => void
  /** Renders the close button (named "Close"). */
  onClose?: () => void
  /** Hover pauses a dismiss timer: the machine listens to these. */
  onPointerEnter?: PointerEventHandler<HTMLDivElement>
  onPointerLeave?: PointerEventHandler<HTMLDivElement>
  id?: string
  className?: string
  ref?: ComponentProps<'div'>['ref']
}

export function ToastCard({
  title,
  description,
  type = 'info',
  actionLabel,
  onAction,
  onClose,
  className,
  ...rest
}: ToastCardProps) {
  const Icon = icons[type]
  return (
    <div
      role={type === 'error' ? 'alert' : 'status'}
      aria-atomic="true"
      data-type={type}
      className={cx(slots.root, cardLayout, tone({ type }), indicator, className)}
      {...rest}
    >
      <Icon aria-hidden className={iconStyle} />
      <div className={textColumn}>
        <div className={slots.title}>{title}</div>
        {description && <div className={slots.description}>{description}</div>}
        {actionLabel && onAction && (
          <div className={slots.actionTrigger}>
            <Button variant="outline" size="xs" onClick={onAction}>
              {actionLabel}
            </Button>
          </div>
        )}
      </div>
      {onClose && (
        <IconButton
          aria-label="Close"
          variant="ghost"
          size="xs"
          className={cx(slots.closeTrigger, closePosition)}
          onClick={onClose}
        >
          <XIcon />
        </IconButton>
      )}
    </div>
  )
}

export type ToastViewportProps = ComponentProps<'section'> & {
  /** Names the landmark; defaults to "Notifications". */
  label?: string
}

const viewport = css({
  position: 'fixed',
  top: '4',
  right: '4',
  zIndex: 'toast',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  width: 'min(360px, calc(100vw - 2rem))',
  // The stack spans the gaps between cards: let clicks through to the page there.
  pointerEvents: 'none',
  '& > *': { pointerEvents: 'auto' },
})

/** The fixed top-right stack the toasts render into (above dialogs: z-index `toast`). */
export function ToastViewport({
  label = 'Notifications',
  className,
  ...props
}: ToastViewportProps) {
  return <section aria-label={label} className={cx(viewport, className)} {...props} />
}
