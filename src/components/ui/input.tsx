import { ark } from '@ark-ui/react/factory'
import type { ComponentProps } from 'react'
import { cx } from 'styled-system/css'
import { type InputVariantProps, input } from 'styled-system/recipes'

// The recipe's `size` replaces the HTML attribute of the same name (a width in characters).
export type InputProps = Omit<ComponentProps<typeof ark.input>, 'size'> & InputVariantProps

/** A text input outside a Field; inside one, use `Field.Input` so label and errors are wired. */
export function Input({ size, className, ...props }: InputProps) {
  return <ark.input className={cx(input({ size }), className)} {...props} />
}
