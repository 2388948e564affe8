import type { ClipboardEvent } from 'react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { textarea } from 'styled-system/recipes'
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
import { Button, Dialog, Field, SimpleSelect } from '../../components/ui'
import {
  ChooseButton,
  ChosenFiles,
  Dropzone,
  FilePicker,
} from '../../components/ui/file-upload.tsx'
import { useView } from '../use-view.ts'
import { readAttachment, type SupportTicketActorRef } from './support-actors.ts'

// room for the close button in the corner
const titleClass = css({ pr: '8' })
const attachDrop = css({
  flexDirection: 'row',
  flexWrap: 'wrap',
  justifyContent: 'flex-start',
  gap: '3',
  p: '3',
})
const dropHint = css({ textStyle: 'sm', color: 'fg.muted' })
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
  description: 'support-ticket-description',
  steps: 'support-ticket-steps',
  attachments: 'support-ticket-attachments',
}

const TYPE_OPTIONS = TICKET_TYPES.map((type) => ({ value: type, label: type }))
const PRIORITY_OPTIONS = TICKET_PRIORITIES.map((priority) => ({ value: priority, label: priority }))

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
          <SimpleSelect
            label="Type"
            inDialog
            size="md"
            options={TYPE_OPTIONS}
            value={view.values.type}
            onChange={(value) => actor.send({ type: 'type.change', value: value as TicketType })}
          />
          <SimpleSelect
            label="Priority"
            inDialog
            size="md"
            options={PRIORITY_OPTIONS}
            value={view.values.priority}
            onChange={(value) =>
              actor.send({ type: 'priority.change', value: value as TicketPriority })
            }
          />
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
          <FilePicker
            accept={ATTACHMENT_ACCEPT}
            multiple
            allowDrop
            onFiles={(files) => void addFiles(files)}
          >
            <Dropzone
              className={attachDrop}
              disableClick
              role="group"
              aria-label="Drop attachments here"
            >
              <ChooseButton multiple size="sm" />
              <span className={dropHint}>or drop them here</span>
            </Dropzone>
          </FilePicker>
          <Field.HelperText>{SUPPORT_TEXTS.attachmentHint}</Field.HelperText>
          {view.attachmentError && (
            <p className={errorText} role="alert">
              {view.attachmentError}
            </p>
          )}
          <ChosenFiles
            label="Attached files"
            files={view.attachments.map((attachment) => ({
              name: attachment.filename,
              size: kilobytes(attachment.size),
            }))}
            onRemove={(index) => actor.send({ type: 'attachment.remove', index })}
          />
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
