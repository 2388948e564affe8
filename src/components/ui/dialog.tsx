import { Dialog } from '@ark-ui/react/dialog'
import type { ComponentProps } from 'react'
import { dialog } from 'styled-system/recipes'
import { createCloseTrigger } from './utils/create-close-trigger'
import { createStyleContext } from './utils/create-style-context'

const { withRootProvider, withContext } = createStyleContext(dialog)

export const Root = withRootProvider(Dialog.Root, 'Dialog.Root')
export const Trigger = withContext(Dialog.Trigger, 'trigger', 'Dialog.Trigger')
export const Backdrop = withContext(Dialog.Backdrop, 'backdrop', 'Dialog.Backdrop')
export const Positioner = withContext(Dialog.Positioner, 'positioner', 'Dialog.Positioner')
/** Has no padding of its own: lay out its children as the dialog needs. */
export const Content = withContext(Dialog.Content, 'content', 'Dialog.Content')
export const Title = withContext(Dialog.Title, 'title', 'Dialog.Title')
export const Description = withContext(Dialog.Description, 'description', 'Dialog.Description')
export const CloseTrigger = createCloseTrigger(
  withContext(Dialog.CloseTrigger, 'closeTrigger', 'Dialog.CloseTriggerPart'),
  'Dialog.CloseTrigger',
)
export type { CloseTriggerProps } from './utils/create-close-trigger'

export type RootProps = ComponentProps<typeof Root>
export type ContentProps = ComponentProps<typeof Content>
