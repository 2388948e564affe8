import { useActorRef } from '@xstate/react'
import { Boxes } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type productChoiceMachine,
  productChoiceView,
  productIdOf,
  productName,
  productOptions,
  productValue,
} from '../../machines/product-choice/index.ts'
import { useEmitted } from '../app/use-emitted.ts'
import { useView } from '../app/use-view.ts'
import { SimpleSelect } from './ui/select.tsx'

export type ProductChoiceRef = ActorRefFrom<typeof productChoiceMachine>

// beside an upload's button: the label before the select from sm up, both on the button's line
const besideButton = css({
  w: { base: 'full', sm: 'auto' },
  flexShrink: 0,
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'stretch', sm: 'center' },
  gap: { base: '1.5', sm: '2' },
  '& [data-part=label]': { whiteSpace: 'nowrap' },
  '& [data-part=control]': { w: { base: 'full', sm: '12rem' } },
})
const errorText = css({ textStyle: 'xs', color: 'fg.error', mt: '1' })
const readOnly = flex({ gap: '1.5', align: 'center', textStyle: 'sm', color: 'fg.muted' })
const lead = css({ whiteSpace: 'nowrap' })
const pickerSelect = css({ w: '14rem', maxW: 'full', flexShrink: 1, minW: '0' })

/**
 * Which product something speaks for (issue 38): All products, then each product. Hidden while
 * the organisation has no products (or they could not be read).
 */
export function ProductSelect(props: {
  choices: ProductChoiceRef
  value: number | null | undefined
  onChange: (productId: number | null) => void
  label?: string
  hideLabel?: boolean
  inDialog?: boolean
  disabled?: boolean
  size?: 'sm' | 'md'
  /** Set beside an upload's button (the label before the select). */
  beside?: boolean
  className?: string
}) {
  const view = useView(props.choices, productChoiceView)
  if (!view.offered) return null
  return (
    <SimpleSelect
      label={props.label ?? 'Product'}
      hideLabel={props.hideLabel}
      inDialog={props.inDialog}
      disabled={props.disabled}
      size={props.size ?? 'md'}
      className={cx(props.beside && besideButton, props.className)}
      options={productOptions(view.products)}
      value={productValue(props.value)}
      onChange={(value) => props.onChange(productIdOf(value))}
    />
  )
}

/**
 * A list's product filter (issue 38): any product (''), the company-wide entries ('none'), or
 * one product's (its id). Hidden while the organisation has no products.
 */
export function ProductFilter(props: {
  choices: ProductChoiceRef
  value: string
  onChange: (value: string) => void
  size?: 'sm' | 'md'
  className?: string
}) {
  const view = useView(props.choices, productChoiceView)
  if (!view.offered) return null
  return (
    <SimpleSelect
      label="Product"
      hideLabel
      size={props.size ?? 'md'}
      className={props.className}
      options={[
        { value: '', label: 'Any product' },
        { value: 'none', label: 'Company-wide (All products)' },
        ...productOptions(view.products).slice(1),
      ]}
      value={props.value}
      onChange={props.onChange}
    />
  )
}

/**
 * A questionnaire's or a file's product, changed at once by whoever may (the machine's target):
 * the choice shows while it is saved; a refusal says why and the earlier product stays. Others
 * read the product's name.
 */
export function ProductPicker(props: {
  logic: ProductChoiceLogic
  target: { kind: 'questionnaire' | 'file'; id: number }
  /** The product as the page read it. */
  current: number | null | undefined
  canChange: boolean
  /** What the product is to the reader: 'Answered for', 'Speaks for'. */
  lead: string
  onAssigned?: (productId: number | null) => void
  className?: string
}) {
  const { onAssigned } = props
  const choices = useActorRef(props.logic, { input: { target: props.target } })
  const view = useView(choices, productChoiceView)
  useEmitted(
    () => [choices.on('assigned', (event) => onAssigned?.(event.productId))],
    [choices, onAssigned],
  )
  if (!view.offered) return null
  const value = view.chosen === undefined ? (props.current ?? null) : view.chosen
  if (!props.canChange)
    return (
      <span className={cx(readOnly, props.className)} data-testid="product-name">
        <Boxes size={14} aria-hidden /> {props.lead} {productName(view.products, value)}
      </span>
    )
  return (
    <div className={props.className}>
      <div className={readOnly}>
        <Boxes size={14} aria-hidden />
        <span className={lead}>{props.lead}</span>
        <ProductSelect
          choices={choices}
          label="Product"
          hideLabel
          className={pickerSelect}
          size="sm"
          value={value}
          disabled={view.busy}
          onChange={(productId) => choices.send({ type: 'choose', productId })}
        />
      </div>
      {view.error && (
        <p className={errorText} role="alert">
          {view.error}
        </p>
      )}
    </div>
  )
}

export type ProductChoiceLogic = typeof productChoiceMachine
