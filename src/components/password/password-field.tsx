import type { ComponentProps, ReactNode } from 'react'
import { css } from 'styled-system/css'
import * as Field from '../ui/field.tsx'
import { PasswordInput } from '../ui/password-input.tsx'

const fullWidth = css({ w: 'full' })

/** A labelled password input with its helper or error line. */
export function PasswordField({
  label,
  value,
  onValueChange,
  error,
  helper,
  ...input
}: Omit<ComponentProps<typeof PasswordInput>, 'value' | 'onChange'> & {
  label: string
  value: string
  onValueChange: (value: string) => void
  error?: string | null
  helper?: ReactNode
}) {
  return (
    <Field.Root invalid={Boolean(error)} className={fullWidth}>
      <Field.Label>{label}</Field.Label>
      <PasswordInput
        {...input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  )
}
