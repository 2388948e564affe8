import { Portal } from '@ark-ui/react/portal'
import { createListCollection, Select } from '@ark-ui/react/select'
import { Check, ChevronsUpDown } from 'lucide-react'
import { type ComponentProps, type ReactNode, useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import { select } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext } = createStyleContext(select)

/** The root, for string choices (Ark's root is generic over its items). */
export const Root = withProvider(
  Select.Root as (props: Select.RootProps<SelectOption>) => ReactNode,
  'root',
  'Select.Root',
)
export const Label = withContext(Select.Label, 'label', 'Select.Label')
export const Control = withContext(Select.Control, 'control', 'Select.Control')
export const Trigger = withContext(Select.Trigger, 'trigger', 'Select.Trigger')
export const ValueText = withContext(Select.ValueText, 'valueText', 'Select.ValueText')
export const Indicator = withContext(Select.Indicator, 'indicator', 'Select.Indicator')
export const Positioner = withContext(Select.Positioner, 'positioner', 'Select.Positioner')
export const Content = withContext(Select.Content, 'content', 'Select.Content')
export const Item = withContext(Select.Item, 'item', 'Select.Item')
export const ItemText = withContext(Select.ItemText, 'itemText', 'Select.ItemText')
export const ItemIndicator = withContext(
  Select.ItemIndicator,
  'itemIndicator',
  'Select.ItemIndicator',
)
export const HiddenSelect = Select.HiddenSelect

export type RootProps = ComponentProps<typeof Root>

/** One choice of a `SimpleSelect`. */
export interface SelectOption {
  value: string
  label: string
}

// a long list scrolls inside its box; above a dialog (the preset puts it under one)
const content = css({ maxH: '18rem', overflowY: 'auto', zIndex: 'popover', minW: '10rem' })
const trigger = css({ gap: '2', '& > span': { truncate: true } })
const hiddenLabel = css({ srOnly: true })

/**
 * A labelled select of a few choices: `value` is one option's value and `onChange` gets the
 * chosen one. `hideLabel` keeps the label for assistive technology only (a filter bar);
 * `inDialog` renders the list inside the dialog (outside it, a modal dialog would not let it be
 * used) and positions it against the window.
 */
export function SimpleSelect(props: {
  label: string
  options: SelectOption[]
  value: string
  onChange: (value: string) => void
  hideLabel?: boolean
  inDialog?: boolean
  disabled?: boolean
  size?: 'sm' | 'md'
  className?: string
  triggerClassName?: string
  placeholder?: string
  children?: ReactNode
}) {
  const collection = useMemo(() => createListCollection({ items: props.options }), [props.options])
  const list = (
    <Positioner>
      <Content className={content}>
        {props.options.map((option) => (
          <Item key={option.value} item={option}>
            <ItemText>{option.label}</ItemText>
            <ItemIndicator>
              <Check />
            </ItemIndicator>
          </Item>
        ))}
      </Content>
    </Positioner>
  )
  return (
    <Root
      collection={collection}
      size={props.size ?? 'sm'}
      value={[props.value]}
      disabled={props.disabled}
      onValueChange={(details) => {
        const [next] = details.value
        if (next !== undefined) props.onChange(next)
      }}
      positioning={{ sameWidth: false, ...(props.inDialog && { strategy: 'fixed' }) }}
      className={props.className}
    >
      <Label className={props.hideLabel ? hiddenLabel : undefined}>{props.label}</Label>
      <Control>
        <Trigger className={cx(trigger, props.triggerClassName)}>
          <ValueText placeholder={props.placeholder} />
          <ChevronsUpDown />
        </Trigger>
      </Control>
      {props.inDialog ? list : <Portal>{list}</Portal>}
      <HiddenSelect />
      {props.children}
    </Root>
  )
}
