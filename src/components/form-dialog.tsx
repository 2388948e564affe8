import type { ReactNode } from 'react'
import { DialogActions, DialogForm, DialogFrame } from './dialog-frame.tsx'
import { alert } from './styles.ts'

/**
 * A dialog of one form: its fields, the error of the last try (role alert), then Cancel and the
 * main button, which submits. `instead`, when given, shows in the frame in place of the form (what
 * the form made, say), so the dialog stays open from one to the other.
 */
export function FormDialog(props: {
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  /** The content box's class (see `dialogBox`). */
  className: string
  error: string | null
  /** How the error shows: a box (`alert`) unless given. */
  errorClassName?: string
  confirmLabel: string
  busy: boolean
  /** Cancel is disabled while the request runs. */
  lockCancel?: boolean
  onSubmit: () => void
  instead?: ReactNode
  /** The form's fields. */
  children: ReactNode
}) {
  return (
    <DialogFrame
      open={props.open}
      onClose={props.onClose}
      className={props.className}
      title={props.title}
      description={props.description}
    >
      {props.instead ? (
        props.instead
      ) : (
        <DialogForm onSubmit={props.onSubmit} noValidate>
          {props.children}
          {props.error && (
            <p className={props.errorClassName ?? alert} role="alert">
              {props.error}
            </p>
          )}
          <DialogActions
            onCancel={props.onClose}
            lockCancel={props.lockCancel}
            busy={props.busy}
            confirmLabel={props.confirmLabel}
          />
        </DialogForm>
      )}
    </DialogFrame>
  )
}
