import { SegmentGroup } from '@ark-ui/react/segment-group'
import type { ComponentProps } from 'react'
import { css, cx } from 'styled-system/css'
import { segmentGroup } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext } = createStyleContext(segmentGroup)

export const Root = withProvider(SegmentGroup.Root, 'root', 'SegmentGroup.Root')
export const Label = withContext(SegmentGroup.Label, 'label', 'SegmentGroup.Label')
export const Item = withContext(SegmentGroup.Item, 'item', 'SegmentGroup.Item')
export const ItemText = withContext(SegmentGroup.ItemText, 'itemText', 'SegmentGroup.ItemText')
export const ItemControl = withContext(
  SegmentGroup.ItemControl,
  'itemControl',
  'SegmentGroup.ItemControl',
)
export const Indicator = withContext(SegmentGroup.Indicator, 'indicator', 'SegmentGroup.Indicator')
export const ItemHiddenInput = SegmentGroup.ItemHiddenInput

export type RootProps = ComponentProps<typeof Root>

// ui-kit: the preset draws tabs with an underline; this is the pill control a filter wants
const pills = css({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.5',
  p: '0.5',
  h: '9',
  borderWidth: '1px',
  borderBottomWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l2',
  bg: 'gray.a2',
})
const pillIndicator = css({
  top: 'var(--top)',
  h: 'var(--height)',
  w: 'var(--width)',
  bg: 'bg.default',
  borderWidth: '0',
  borderBottomWidth: '0',
  borderRadius: 'l1',
  boxShadow: 'xs',
  transform: 'none',
})
const pillItem = css({
  position: 'relative',
  zIndex: '1',
  px: '3',
  pb: '0',
  h: 'full',
  display: 'inline-flex',
  alignItems: 'center',
  textStyle: 'sm',
  whiteSpace: 'nowrap',
  borderRadius: 'l1',
  _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'colorPalette.default' },
})

/** A row of a few exclusive choices drawn as pills; `value` is the chosen one's. */
export function PillSegments(props: {
  label: string
  options: { value: string; label: string }[]
  value: string
  onChange: (value: string) => void
  className?: string
}) {
  return (
    <Root
      orientation="horizontal"
      size="sm"
      value={props.value}
      onValueChange={(details) => details.value && props.onChange(details.value)}
      className={cx(pills, props.className)}
      aria-label={props.label}
    >
      <Indicator className={pillIndicator} />
      {props.options.map((option) => (
        <Item key={option.value} value={option.value} className={pillItem}>
          <ItemText>{option.label}</ItemText>
          <ItemControl />
          <ItemHiddenInput />
        </Item>
      ))}
    </Root>
  )
}
