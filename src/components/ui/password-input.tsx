import { cx } from 'styled-system/css'
import { PasswordReveal, revealRoom } from '../password/password-reveal.tsx'
import { Input as FieldInput, type InputProps } from './field.tsx'

/**
 * A password field input with a show/hide toggle (spec section 2). Use inside `Field.Root` so the
 * label and error text are wired.
 */
export function PasswordInput({ className, ...props }: Omit<InputProps, 'type'>) {
  return (
    <PasswordReveal>
      {(visible) => (
        <FieldInput
          {...props}
          type={visible ? 'text' : 'password'}
          className={cx(revealRoom, className)}
          autoCapitalize="off"
          spellCheck={false}
        />
      )}
    </PasswordReveal>
  )
}
