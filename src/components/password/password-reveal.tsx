import { Eye, EyeOff } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { css } from 'styled-system/css'

const wrap = css({ position: 'relative', w: 'full' })
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

/** Room on the right of a password input for the show/hide toggle. */
export const revealRoom = css({ pr: '10' })

/**
 * The show/hide toggle of every password input (spec section 2): `children` renders the input for
 * the current visibility, the toggle sits on its right edge. Showing the password is view-local
 * presentation, not flow state, so it lives here rather than in a machine. It brings no Ark UI, so
 * the login page's native inputs use it too.
 */
export function PasswordReveal(props: { children: (visible: boolean) => ReactNode }) {
  const [visible, setVisible] = useState(false)
  return (
    <div className={wrap}>
      {props.children(visible)}
      <button
        type="button"
        className={toggle}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        onClick={() => setVisible((shown) => !shown)}
      >
        {visible ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
      </button>
    </div>
  )
}
