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

/**
 * Asks before deleting what a list marked for deletion (one item or several), for a list machine
 * that answers `delete.confirm` and `delete.cancel`: 'Delete this file?', 'Delete 3 files?'.
 */
export function DeleteDialog(props: {
  list: { send: (event: { type: 'delete.confirm' } | { type: 'delete.cancel' }) => void }
  view: { confirming: boolean; deleting: boolean; pendingDelete: readonly unknown[] }
  noun: string
  description: string
}) {
  const { list, view, noun } = props
  const count = view.pendingDelete.length
  return (
    <ConfirmDialog
      open={view.confirming}
      title={count === 1 ? `Delete this ${noun}?` : `Delete ${count} ${noun}s?`}
      description={props.description}
      confirmLabel="Delete"
      busy={view.deleting}
      onConfirm={() => list.send({ type: 'delete.confirm' })}
      onCancel={() => list.send({ type: 'delete.cancel' })}
    />
  )
}
