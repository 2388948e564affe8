import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { Button } from '../ui/button.tsx'
import { PasswordField } from './password-field.tsx'

const form = css({ display: 'flex', flexDirection: 'column', gap: '4' })
const fullWidth = css({ w: 'full' })

/**
 * The one form for choosing a new password (reset, first password from an invite, forced change):
 * the password with the rules, its confirmation, what went wrong (`children`) and the button. The
 * machine behind the page holds both values and decides; the form only reports typing and submit.
 */
export function NewPasswordForm(props: {
  password: string
  confirm: string
  busy: boolean
  submitLabel: string
  onPassword: (value: string) => void
  onConfirm: (value: string) => void
  onSubmit: () => void
  children?: ReactNode
}) {
  return (
    <form
      className={form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
    >
      <PasswordField
        label="New password"
        name="new_password"
        autoComplete="new-password"
        value={props.password}
        onValueChange={props.onPassword}
        helper={AUTH_TEXTS.passwordHint}
        disabled={props.busy}
      />
      <PasswordField
        label="Confirm password"
        name="confirm_password"
        autoComplete="new-password"
        value={props.confirm}
        onValueChange={props.onConfirm}
        disabled={props.busy}
      />
      {props.children}
      <Button type="submit" size="lg" className={fullWidth} loading={props.busy}>
        {props.submitLabel}
      </Button>
    </form>
  )
}
