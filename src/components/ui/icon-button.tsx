import { css, cx } from 'styled-system/css'
import { Button, type ButtonProps } from './button'

export type IconButtonProps = ButtonProps & {
  /** An icon has no text, so the accessible name is required. */
  'aria-label': string
}

// The button recipe's min width equals its height per size, so dropping the padding makes it square.
const square = css({ px: '0' })

export function IconButton({ className, ...props }: IconButtonProps) {
  return <Button className={cx(square, className)} {...props} />
}
