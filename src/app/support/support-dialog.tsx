import { Paperclip, X } from 'lucide-react'
import type { ClipboardEvent } from 'react'
import { css } from 'styled-system/css'
import { flex, stack } from 'styled-system/patterns'
import { input, textarea } from 'styled-system/recipes'
import {
  ATTACHMENT_ACCEPT,
  SUPPORT_TEXTS,
  TICKET_PRIORITIES,
  TICKET_TYPES,
  type TicketPriority,
  type TicketType,
} from '../../../contract/support.ts'
import { supportTicketView, type TicketTextField } from '../../../machines/support-ticket/index.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { dialogBox, grid2 } from '../../components/styles.ts'
import { Button, Dialog, Field, IconButton } from '../../components/ui'
import { useView } from '../use-view.ts'
import { readAttachment, type SupportTicketActorRef } from './support-actors.ts'

// room for the close button in the corner
const titleClass = css({ pr: '8' })
const select = css({ w: 'full', appearance: 'auto', cursor: 'pointer', bg: 'bg.default' })
const fileInput = css({
  w: 'full',
  textStyle: 'sm',
  color: 'fg.muted',
  cursor: 'pointer',
  '&::file-selector-button': {
    mr: '3',
    px: '3',
    py: '1.5',
    borderRadius: 'l2',
    borderWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.default',
    color: 'fg.default',
    cursor: 'pointer',
  },
})
const fileList = stack({ gap: '1', mt: '1' })
const fileRow = flex({
  align: 'center',
  gap: '2',
  pl: '2',
  borderRadius: 'l2',
  bg: 'gray.a2',
  textStyle: 'sm',
})
const fileName = css({ flex: '1', minW: '0', truncate: true })
const fileSize = css({ color: 'fg.muted', flexShrink: '0' })
const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const alert = css({
  p: '3',
  borderRadius: 'l2',
  borderWidth: '1px',
  borderColor: 'red.a7',
  bg: 'red.a2',
  color: 'fg.error',
  textStyle: 'sm',
})
const actions = flex({ wrap: 'wrap', gap: '2', justify: 'flex-end', align: 'center' })
const clearButton = css({ mr: 'auto' })

const ids = {
  type: 'support-ticket-type',
  description: 'support-ticket-description',
  steps: 'support-ticket-steps',
  priority: 'support-ticket-priority',
  attachments: 'support-ticket-attachments',
}

const kilobytes = (size: number) =>
  size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(size / 1024)} KB`

/** 'Submit a ticket' (spec sections 2, 3, 4 and 5): renders the support ticket actor. */
export function SupportDialog({ actor }: { actor: SupportTicketActorRef }) {
  const view = useView(actor, supportTicketView)

  const change = (field: TicketTextField) => (event: { target: { value: string } }) =>
    actor.send({ type: 'field.change', field, value: event.target.value })

  const addFiles = async (files: File[]) => {
    for (const [index, file] of files.entries()) {
      // a pasted screenshot may come without a name
      const name = file.name || pastedName(file, index)
      try {
        actor.send({ type: 'attachment.add', attachment: await readAttachment(file, name) })
      } catch {
        // an unreadable file is simply not attached
      }
    }
  }

  const onPaste = (event: ClipboardEvent) => {
    const files = Array.from(event.clipboardData.files)
    if (files.length === 0) return
    event.preventDefault()
    void addFiles(files)
  }

  return (
    <DialogFrame
      open={view.open}
      lazyMount
      unmountOnExit
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox({ size: 'xl' })}
      contentProps={{ onPaste }}
      title={SUPPORT_TEXTS.title}
      titleClassName={titleClass}
    >
      <Dialog.CloseTrigger disabled={view.submitting} />
      <DialogForm noValidate onSubmit={() => actor.send({ type: 'submit' })}>
        <div className={grid2}>
          <Field.Root id={ids.type}>
            <Field.Label>Type</Field.Label>
            <select
              id={ids.type}
              className={`${input({ size: 'md' })} ${select}`}
              value={view.values.type}
              onChange={(event) =>
                actor.send({ type: 'type.change', value: event.target.value as TicketType })
              }
            >
              {TICKET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </Field.Root>
          <Field.Root id={ids.priority}>
            <Field.Label>Priority</Field.Label>
            <select
              id={ids.priority}
              className={`${input({ size: 'md' })} ${select}`}
              value={view.values.priority}
              onChange={(event) =>
                actor.send({
                  type: 'priority.change',
                  value: event.target.value as TicketPriority,
                })
              }
            >
              {TICKET_PRIORITIES.map((priority) => (
                <option key={priority} value={priority}>
                  {priority}
                </option>
              ))}
            </select>
          </Field.Root>
        </div>
        <Field.Root required invalid={view.errors.summary !== null}>
          <Field.Label>
            Summary
            <Field.RequiredIndicator />
          </Field.Label>
          <Field.Input
            value={view.values.summary}
            onChange={change('summary')}
            placeholder="A short title"
            autoComplete="off"
          />
          <Field.ErrorText>{view.errors.summary}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={view.errors.description !== null} id={ids.description}>
          <Field.Label>
            Description
            <Field.RequiredIndicator />
          </Field.Label>
          <textarea
            id={ids.description}
            className={textarea({ size: 'md' })}
            rows={4}
            required
            aria-invalid={view.errors.description !== null || undefined}
            value={view.values.description}
            onChange={change('description')}
          />
          <Field.ErrorText>{view.errors.description}</Field.ErrorText>
        </Field.Root>
        <Field.Root id={ids.steps}>
          <Field.Label>Steps to reproduce</Field.Label>
          <textarea
            id={ids.steps}
            className={textarea({ size: 'md' })}
            rows={3}
            placeholder="Optional"
            value={view.values.steps}
            onChange={change('steps')}
          />
        </Field.Root>
        <Field.Root id={ids.attachments}>
          <Field.Label>Attachments</Field.Label>
          <input
            id={ids.attachments}
            className={fileInput}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            onChange={(event) => {
              const files = Array.from(event.target.files ?? [])
              // the same file can be chosen again after it was removed
              event.target.value = ''
              void addFiles(files)
            }}
          />
          <Field.HelperText>{SUPPORT_TEXTS.attachmentHint}</Field.HelperText>
          {view.attachmentError && (
            <p className={errorText} role="alert">
              {view.attachmentError}
            </p>
          )}
          {view.attachments.length > 0 && (
            <ul className={fileList} aria-label="Attached files">
              {view.attachments.map((attachment, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows keep no state, and the same file may be attached twice
                <li key={`${index}-${attachment.filename}`} className={fileRow}>
                  <Paperclip size={14} aria-hidden />
                  <span className={fileName}>{attachment.filename}</span>
                  <span className={fileSize}>{kilobytes(attachment.size)}</span>
                  <IconButton
                    type="button"
                    variant="ghost"
                    size="xs"
                    aria-label={`Remove ${attachment.filename}`}
                    onClick={() => actor.send({ type: 'attachment.remove', index })}
                  >
                    <X size={14} aria-hidden />
                  </IconButton>
                </li>
              ))}
            </ul>
          )}
        </Field.Root>
        {view.failure && (
          <div className={alert} role="alert">
            {view.failure}
          </div>
        )}
        <DialogActions
          className={actions}
          onCancel={() => actor.send({ type: 'close' })}
          lockCancel
          busy={view.submitting}
          confirmLabel="Submit"
        >
          <Button
            type="button"
            variant="ghost"
            className={clearButton}
            disabled={view.submitting}
            onClick={() => actor.send({ type: 'clear' })}
          >
            {SUPPORT_TEXTS.clearForm}
          </Button>
        </DialogActions>
      </DialogForm>
    </DialogFrame>
  )
}

function pastedName(file: File, index: number) {
  const extension = file.type.split('/')[1]?.replace('jpeg', 'jpg') || 'png'
  return `pasted-image-${index + 1}.${extension}`
}
