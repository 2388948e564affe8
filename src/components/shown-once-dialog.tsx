import { Copy } from 'lucide-react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { DialogActions, DialogFrame } from './dialog-frame.tsx'
import { FormDialog } from './form-dialog.tsx'
import { callout } from './form-styles.ts'
import { dialogBox, toolbar } from './styles.ts'
import { Button } from './ui/button.tsx'

const secretText = css({
  fontFamily: 'mono',
  textStyle: 'sm',
  p: '3',
  borderRadius: 'l2',
  bg: 'gray.a3',
  wordBreak: 'break-all',
})

/**
 * A form in a dialog that, once what it makes exists, shows the secret made with it this once (an
 * API key, a signing secret). One dialog from the form to the secret: two dialogs swapping would
 * close it.
 */
export function ShownOnceDialog(props: {
  editing: boolean
  title: string
  error: string | null
  busy: boolean
  confirmLabel: string
  onSubmit: () => void
  onCancel: () => void
  /** The secret made (null: none yet). */
  secret: string | null
  secretTitle: string
  secretDescription: string
  secretTestId: string
  /** Shown before the secret. */
  secretIcon?: ReactNode
  /** A Copy button beside Done. */
  copyable?: boolean
  onDone: () => void
  /** The form's fields. */
  children: ReactNode
}) {
  const { secret } = props
  return (
    <FormDialog
      open={props.editing || secret !== null}
      onClose={secret !== null ? props.onDone : props.onCancel}
      title={secret !== null ? props.secretTitle : props.title}
      description={secret !== null ? props.secretDescription : undefined}
      className={dialogBox({ size: 'md' })}
      error={props.error}
      errorClassName={callout({ tone: 'error' })}
      confirmLabel={props.confirmLabel}
      busy={props.busy}
      onSubmit={props.onSubmit}
      instead={
        secret === null ? undefined : (
          <>
            <p className={secretText} data-testid={props.secretTestId}>
              {props.secretIcon}
              {secret}
            </p>
            <div className={toolbar}>
              {props.copyable && (
                <Button
                  variant="outline"
                  onClick={() => void navigator.clipboard?.writeText(secret)}
                >
                  <Copy /> Copy
                </Button>
              )}
              <Button onClick={props.onDone}>Done</Button>
            </div>
          </>
        )
      }
    >
      {props.children}
    </FormDialog>
  )
}

/** Asks before an action on one item of a settings list (revoke a key, remove an endpoint). */
export function ConfirmActionDialog(props: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <DialogFrame
      open={props.open}
      onClose={props.onCancel}
      title={props.title}
      description={props.description}
      className={dialogBox({ size: 'md' })}
    >
      <DialogActions
        onCancel={props.onCancel}
        confirmLabel={props.confirmLabel}
        onConfirm={props.onConfirm}
        busy={props.busy}
      />
    </DialogFrame>
  )
}
