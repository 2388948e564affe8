import type { ComponentProps } from 'react'
import { cva, cx, type RecipeVariantProps } from 'styled-system/css'

/**
 * The preset has no spinner recipe. Two border colours are needed for the gap to show (ui-kit fix 4):
 * the arc and a faint track both follow the text colour, so it also reads on a solid button.
 */
export const spinnerRecipe = cva({
  base: {
    display: 'inline-block',
    flexShrink: '0',
    borderRadius: 'full',
    borderStyle: 'solid',
    borderTopColor: 'currentColor',
    borderRightColor: 'currentColor',
    // A faint track under the arc: the same colour, mostly transparent.
    borderBottomColor: 'color-mix(in srgb, currentColor 20%, transparent)',
    borderLeftColor: 'color-mix(in srgb, currentColor 20%, transparent)',
    animation: 'spin 0.7s linear infinite',
    _motionReduce: { animationDuration: '1.6s' },
  },
  defaultVariants: { size: 'md' },
  variants: {
    size: {
      sm: { width: '4', height: '4', borderWidth: '2px' },
      md: { width: '6', height: '6', borderWidth: '2px' },
      lg: { width: '10', height: '10', borderWidth: '3px' },
    },
  },
})

export type SpinnerVariantProps = NonNullable<RecipeVariantProps<typeof spinnerRecipe>>

export type SpinnerProps = Omit<ComponentProps<'span'>, 'role'> &
  SpinnerVariantProps & {
    /** Accessible name; defaults to "Loading". */
    label?: string
  }

export function Spinner({ size, label = 'Loading', className, ...rest }: SpinnerProps) {
  return (
    <span
      role="status"
      aria-label={label}
      className={cx(spinnerRecipe({ size }), className)}
      {...rest}
    />
  )
}
