import type { ChangeEvent, ComponentProps, ComponentType, ReactNode } from 'react'
import { css } from 'styled-system/css'
import * as Field from '../ui/field.tsx'
import { PasswordInput } from '../ui/password-input.tsx'

const fullWidth = css({ w: 'full' })

/** What a labelled field of the account forms is given besides its input's own attributes. */
interface LabelledFieldProps {
  label: string
  value: string
  onValueChange: (value: string) => void
  error?: string | null
  helper?: ReactNode
}

interface ValueInputProps {
  value?: ComponentProps<'input'>['value']
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void
}

/**
 * A labelled field around `Input` (a text or a password input): the label, the input with its
 * value, then its helper or, once there is one, the error, which marks it invalid.
 */
export function labelledField<Props extends ValueInputProps>(Input: ComponentType<Props>) {
  return function LabelledField({
    label,
    value,
    onValueChange,
    error,
    helper,
    ...input
  }: Omit<Props, keyof ValueInputProps> & LabelledFieldProps) {
    const inputProps = {
      ...input,
      value,
      onChange: (event: ChangeEvent<HTMLInputElement>) => onValueChange(event.target.value),
    } as unknown as Props
    return (
      <Field.Root invalid={Boolean(error)} className={fullWidth}>
        <Field.Label>{label}</Field.Label>
        <Input {...inputProps} />
        {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    )
  }
}

/** A labelled password input with the show/hide toggle and its helper or error line. */
export const PasswordField = labelledField(PasswordInput)
