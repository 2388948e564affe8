import { Menu } from '@ark-ui/react/menu'
import type { ComponentProps } from 'react'
import { menu } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withRootProvider, withContext } = createStyleContext(menu)

/** `size` (xs | sm | md | lg) sets item height and padding for the whole menu. */
export const Root = withRootProvider(Menu.Root, 'Menu.Root')
export const Trigger = withContext(Menu.Trigger, 'trigger', 'Menu.Trigger')
export const Positioner = withContext(Menu.Positioner, 'positioner', 'Menu.Positioner')
export const Content = withContext(Menu.Content, 'content', 'Menu.Content')
export const Item = withContext(Menu.Item, 'item', 'Menu.Item')
export const ItemText = withContext(Menu.ItemText, 'itemText', 'Menu.ItemText')
export const ItemGroup = withContext(Menu.ItemGroup, 'itemGroup', 'Menu.ItemGroup')
export const ItemGroupLabel = withContext(
  Menu.ItemGroupLabel,
  'itemGroupLabel',
  'Menu.ItemGroupLabel',
)
export const Separator = withContext(Menu.Separator, 'separator', 'Menu.Separator')

export type RootProps = ComponentProps<typeof Root>
export type ItemProps = ComponentProps<typeof Item>
