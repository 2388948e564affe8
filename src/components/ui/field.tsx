import { Field } from '@ark-ui/react/field'
import type { ComponentProps } from 'react'
import { css, cx } from 'styled-system/css'
import { field, type InputVariantProps, input } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext, useSlotClass } = createStyleContext(field)

/** `invalid`, `disabled`, `required` and `readOnly` flow from here to every part. */
export const Root = withProvider(Field.Root, 'root', 'Field.Root')
export const Label = withContext(Field.Label, 'label', 'Field.Label')
export const HelperText = withContext(Field.HelperText, 'helperText', 'Field.HelperText')
/** Rendered only while the root is `invalid`. */
export const ErrorText = withContext(Field.ErrorText, 'errorText', 'Field.ErrorText')

const requiredMark = css({ color: 'fg.error', ms: '0.5' })

/** An asterisk (or the given children) rendered only when the root is `required`. */
export function RequiredIndicator({
  className,
  ...props
}: ComponentProps<typeof Field.RequiredIndicator>) {
  return <Field.RequiredIndicator className={cx(requiredMark, className)} {...props} />
}

export type RootProps = ComponentProps<typeof Root>

export type InputProps = Omit<ComponentProps<typeof Field.Input>, 'size'> & InputVariantProps

/** The field's input, styled with the `input` recipe and wired to the label, helper and error. */
export function Input({ size, className, ...props }: InputProps) {
  const slotClass = useSlotClass('input')
  return <Field.Input className={cx(input({ size }), slotClass, className)} {...props} />
}
