import { Eye, EyeOff } from 'lucide-react'
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { Input as FieldInput, type InputProps } from './field.tsx'

const wrap = css({ position: 'relative', w: 'full' })
const withRoom = css({ pr: '10' })
const toggle = css({
  position: 'absolute',
  top: '50%',
  right: '1',
  translate: '0 -50%',
  display: 'grid',
  placeItems: 'center',
  w: '8',
  h: '8',
  borderRadius: 'l2',
  color: 'fg.muted',
  bg: 'transparent',
  border: 'none',
  cursor: 'pointer',
  _hover: { color: 'fg.default', bg: 'gray.a3' },
  _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default' },
})

/**
 * A password field input with a show/hide toggle (spec section 2). Use inside `Field.Root` so the
 * label and error text are wired. Showing the password is view-local presentation, not flow
 * state, so it lives here rather than in a machine.
 */
export function PasswordInput({ className, ...props }: Omit<InputProps, 'type'>) {
  const [visible, setVisible] = useState(false)
  return (
    <div className={wrap}>
      <FieldInput
        {...props}
        type={visible ? 'text' : 'password'}
        className={cx(withRoom, className)}
        autoCapitalize="off"
        spellCheck={false}
      />
      <button
        type="button"
        className={toggle}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        onClick={() => setVisible((value) => !value)}
      >
        {visible ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
      </button>
    </div>
  )
}
