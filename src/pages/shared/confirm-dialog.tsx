import { css } from 'styled-system/css'
import { Button, Dialog, Portal } from '../../components/ui'

const content = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: '6',
  w: { base: 'calc(100vw - 2rem)', sm: 'md' },
})
const actions = css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })
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
    <Dialog.Root
      open={props.open}
      onOpenChange={(details) => !details.open && props.onCancel()}
      role="alertdialog"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={content}>
            <Dialog.Title>{props.title}</Dialog.Title>
            <Dialog.Description>{props.description}</Dialog.Description>
            {props.error && <p className={errorText}>{props.error}</p>}
            <div className={actions}>
              <Button variant="outline" onClick={props.onCancel} disabled={props.busy}>
                Cancel
              </Button>
              <Button className={danger} onClick={props.onConfirm} loading={props.busy}>
                {props.confirmLabel}
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
