import { ark } from '@ark-ui/react/factory'
import type { ComponentProps, ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { type ButtonVariantProps, button } from 'styled-system/recipes'
import { Spinner } from './spinner'

export type ButtonProps = ComponentProps<typeof ark.button> &
  ButtonVariantProps & {
    /** Disables the button, marks it aria-busy and shows a spinner. */
    loading?: boolean
    /** Shown beside the spinner while loading; without it the label is hidden but keeps its width. */
    loadingText?: ReactNode
  }

const hiddenLabel = css({ visibility: 'hidden', display: 'contents' })
const centredSpinner = css({
  position: 'absolute',
  top: '50%',
  left: '50%',
  translate: '-50% -50%',
})

export function Button(props: ButtonProps) {
  const [variantProps, { loading = false, loadingText, disabled, className, children, ...rest }] =
    button.splitVariantProps(props)

  return (
    <ark.button
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      data-loading={loading ? '' : undefined}
      className={cx(button(variantProps), className)}
      {...rest}
    >
      {!loading ? (
        children
      ) : loadingText ? (
        <>
          <Spinner size="sm" />
          {loadingText}
        </>
      ) : (
        <>
          <Spinner size="sm" className={centredSpinner} />
          <span className={hiddenLabel}>{children}</span>
        </>
      )}
    </ark.button>
  )
}
