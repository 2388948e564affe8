import { Dialog } from '@ark-ui/react/dialog'
import { ark } from '@ark-ui/react/factory'
import type { ComponentProps } from 'react'
import { drawer } from 'styled-system/recipes'
import { createCloseTrigger } from './utils/create-close-trigger'
import { createStyleContext } from './utils/create-style-context'

// A slide-over panel built from Ark's Dialog parts (not Ark 5's swipeable Drawer) with the preset's
// drawer recipe: content is a grid of header, body and footer rows.
const { withRootProvider, withContext } = createStyleContext(drawer)

const StyledRoot = withRootProvider(Dialog.Root, 'Drawer.Root')

export type RootProps = Omit<ComponentProps<typeof StyledRoot>, 'variant'> & {
  /** The edge the panel slides in from: `start` (left) or `end` (right, the default). */
  placement?: 'start' | 'end'
}

export function Root({ placement = 'end', ...props }: RootProps) {
  return <StyledRoot variant={placement === 'start' ? 'left' : 'right'} {...props} />
}

export const Trigger = withContext(Dialog.Trigger, 'trigger', 'Drawer.Trigger')
export const Backdrop = withContext(Dialog.Backdrop, 'backdrop', 'Drawer.Backdrop')
export const Positioner = withContext(Dialog.Positioner, 'positioner', 'Drawer.Positioner')
export const Content = withContext(Dialog.Content, 'content', 'Drawer.Content')
export const Header = withContext(ark.div, 'header', 'Drawer.Header')
export const Body = withContext(ark.div, 'body', 'Drawer.Body')
export const Footer = withContext(ark.div, 'footer', 'Drawer.Footer')
export const Title = withContext(Dialog.Title, 'title', 'Drawer.Title')
export const Description = withContext(Dialog.Description, 'description', 'Drawer.Description')
export const CloseTrigger = createCloseTrigger(
  withContext(Dialog.CloseTrigger, 'closeTrigger', 'Drawer.CloseTriggerPart'),
  'Drawer.CloseTrigger',
)
export type { CloseTriggerProps } from './utils/create-close-trigger'

export type ContentProps = ComponentProps<typeof Content>
