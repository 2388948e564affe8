import { Portal } from '@ark-ui/react/portal'
import { Tooltip } from '@ark-ui/react/tooltip'
import type { ComponentProps, ReactElement, ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { tooltip } from 'styled-system/recipes'
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../../machines/constants.ts'
import { createStyleContext } from './utils/create-style-context'

const { withRootProvider, withContext } = createStyleContext(tooltip)

export const Root = withRootProvider(Tooltip.Root, 'Tooltip.Root')
export const Trigger = withContext(Tooltip.Trigger, 'trigger', 'Tooltip.Trigger')
export const Positioner = withContext(Tooltip.Positioner, 'positioner', 'Tooltip.Positioner')
export const Content = withContext(Tooltip.Content, 'content', 'Tooltip.Content')

// The preset leaves the arrow unstyled; Ark sizes and colours it from these two variables.
const arrowVars = css({ '--arrow-size': '{sizes.2}', '--arrow-background': '{colors.gray.a12}' })
const StyledArrow = withContext(Tooltip.Arrow, 'arrow', 'Tooltip.Arrow')
const StyledArrowTip = withContext(Tooltip.ArrowTip, 'arrowTip', 'Tooltip.ArrowTip')

export type ArrowProps = ComponentProps<typeof Tooltip.Arrow>

/** The arrow with its tip: `<Tooltip.Arrow />` inside Content. */
export function Arrow({ className, children, ...props }: ArrowProps) {
  return (
    <StyledArrow className={cx(arrowVars, className)} {...props}>
      {children ?? <StyledArrowTip />}
    </StyledArrow>
  )
}

export type RootProps = ComponentProps<typeof Root>

export type SimpleTooltipProps = Omit<RootProps, 'children'> & {
  /** What the tooltip says. */
  content: ReactNode
  /** The trigger: one element that accepts a ref and DOM props (a Button, an IconButton, a link). */
  children: ReactElement
  showArrow?: boolean
}

/** `<SimpleTooltip content="Archive">{trigger}</SimpleTooltip>`, portalled and mounted lazily. */
export function SimpleTooltip({
  content,
  children,
  showArrow = false,
  openDelay = TOOLTIP_OPEN_DELAY_MS,
  closeDelay = TOOLTIP_SKIP_DELAY_MS,
  ...rootProps
}: SimpleTooltipProps) {
  return (
    <Root openDelay={openDelay} closeDelay={closeDelay} lazyMount unmountOnExit {...rootProps}>
      <Trigger asChild>{children}</Trigger>
      <Portal>
        <Positioner>
          <Content>
            {showArrow && <Arrow />}
            {content}
          </Content>
        </Positioner>
      </Portal>
    </Root>
  )
}
