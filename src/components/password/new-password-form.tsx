import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import type { NewPasswordEvents } from '../../../machines/account.ts'
import { Button } from '../ui/button.tsx'
import { AccountForm } from './account-form.tsx'
import { PasswordField } from './password-field.tsx'

const fullWidth = css({ w: 'full' })

const FIELDS = [
  { label: 'New password', name: 'new_password', event: 'password.change', helper: true },
  { label: 'Confirm password', name: 'confirm_password', event: 'confirm.change', helper: false },
] as const

/**
 * The one form for choosing a new password (reset, first password from an invite, forced change):
 * the password with the rules, its confirmation, what went wrong (`children`) and the button. The
 * machine behind the page holds both values and decides; the form only sends it typing and submit.
 */
export function NewPasswordForm(props: {
  password: string
  confirm: string
  busy: boolean
  submitLabel: string
  send: (event: NewPasswordEvents) => void
  children?: ReactNode
}) {
  const values = { 'password.change': props.password, 'confirm.change': props.confirm }
  return (
    <AccountForm onSubmit={() => props.send({ type: 'submit' })}>
      {FIELDS.map((field) => (
        <PasswordField
          key={field.name}
          label={field.label}
          name={field.name}
          autoComplete="new-password"
          value={values[field.event]}
          onValueChange={(value) => props.send({ type: field.event, value })}
          helper={field.helper ? AUTH_TEXTS.passwordHint : undefined}
          disabled={props.busy}
        />
      ))}
      {props.children}
      <Button type="submit" size="lg" className={fullWidth} loading={props.busy}>
        {props.submitLabel}
      </Button>
    </AccountForm>
  )
}
