import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { dialogActions, formStack } from './styles.ts'
import { Button } from './ui/button.tsx'
import * as Dialog from './ui/dialog.tsx'

/**
 * A dialog's frame: backdrop, positioner and the content box with its title and description.
 * Closing it any way (Escape, the backdrop) calls `onClose`; the rest of the root's props pass on.
 */
export function DialogFrame({
  open,
  onClose,
  title,
  titleClassName,
  description,
  className,
  contentProps,
  children,
  ...root
}: {
  open: boolean
  onClose: () => void
  title: ReactNode
  titleClassName?: string
  description?: ReactNode
  /** The content box's class (see `dialogBox`). */
  className: string
  contentProps?: Omit<Dialog.ContentProps, 'className' | 'children'>
  children: ReactNode
} & Omit<Dialog.RootProps, 'open' | 'onOpenChange' | 'children'>) {
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} {...root}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={className} {...contentProps}>
            <Dialog.Title className={titleClassName}>{title}</Dialog.Title>
            {description !== undefined && <Dialog.Description>{description}</Dialog.Description>}
            {children}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** A dialog's form: its fields one under another; submitting it calls `onSubmit`. */
export function DialogForm(props: {
  onSubmit: () => void
  noValidate?: boolean
  className?: string
  children: ReactNode
}) {
  return (
    <form
      className={props.className ?? formStack}
      noValidate={props.noValidate}
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
    >
      {props.children}
    </form>
  )
}

/**
 * The buttons at a dialog's foot: anything given first, then Cancel, then the main button, which
 * submits the form unless `onConfirm` is given.
 */
export function DialogActions(props: {
  onCancel: () => void
  confirmLabel: ReactNode
  onConfirm?: () => void
  busy?: boolean
  disabled?: boolean
  /** Cancel is disabled too (while a request runs that cannot be stopped). */
  lockCancel?: boolean
  confirmClassName?: string
  className?: string
  children?: ReactNode
}) {
  return (
    <div className={props.className ?? dialogActions}>
      {props.children}
      <Button
        type="button"
        variant="outline"
        disabled={props.lockCancel && props.busy}
        onClick={props.onCancel}
      >
        Cancel
      </Button>
      <Button
        type={props.onConfirm ? 'button' : 'submit'}
        className={props.confirmClassName}
        loading={props.busy}
        disabled={props.disabled}
        onClick={props.onConfirm}
      >
        {props.confirmLabel}
      </Button>
    </div>
  )
}
