import type { Dialog } from '@ark-ui/react/dialog'
import { XIcon } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { IconButton } from '../icon-button'

export type CloseTriggerProps = ComponentProps<typeof Dialog.CloseTrigger>

// ui-kit fix 4. A utility class rather than a recipe override: it has to beat the button recipe's
// `position: relative`, which lives in the same cascade layer as the dialog and drawer recipes, and
// the drawer content's `divideY`, which would otherwise draw a rule above the button.
const cornerPosition = css({ position: 'absolute', top: '3', insetEnd: '3', borderTopWidth: '0' })

/**
 * Without `asChild`: a ghost X icon button in the content's top-right corner, named "Close" unless
 * `aria-label` says otherwise. With `asChild`: closes from the given child, which keeps its own look
 * (`<Dialog.CloseTrigger asChild><Button variant="outline">Cancel</Button></Dialog.CloseTrigger>`).
 */
export function createCloseTrigger(
  Part: (props: CloseTriggerProps) => ReactNode,
  displayName: string,
) {
  function CloseTrigger({
    asChild,
    className,
    children,
    'aria-label': ariaLabel = 'Close',
    ...props
  }: CloseTriggerProps) {
    if (asChild) {
      return (
        <Part asChild aria-label={ariaLabel} className={className} {...props}>
          {children}
        </Part>
      )
    }
    return (
      <Part asChild {...props}>
        <IconButton
          aria-label={ariaLabel}
          variant="ghost"
          size="sm"
          className={cx(cornerPosition, className)}
        >
          {children ?? <XIcon />}
        </IconButton>
      </Part>
    )
  }
  CloseTrigger.displayName = displayName
  return CloseTrigger
}
