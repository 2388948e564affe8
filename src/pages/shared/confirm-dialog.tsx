import { css } from 'styled-system/css'
import { DialogActions, DialogFrame } from '../../components/dialog-frame.tsx'
import { dialogBox } from '../../components/styles.ts'

const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const danger = css({ colorPalette: 'red' })

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog(props: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  busy?: boolean
  error?: string | null
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <DialogFrame
      open={props.open}
      onClose={props.onCancel}
      role="alertdialog"
      className={dialogBox({ pad: 'fixed' })}
      title={props.title}
      description={props.description}
    >
      {props.error && <p className={errorText}>{props.error}</p>}
      <DialogActions
        onCancel={props.onCancel}
        lockCancel
        busy={props.busy}
        confirmLabel={props.confirmLabel}
        confirmClassName={danger}
        onConfirm={props.onConfirm}
      />
    </DialogFrame>
  )
}
