import { Portal } from '@ark-ui/react/portal'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { addByUrlMachine } from '../../../machines/add-by-url/index.ts'
import { Button } from '../ui/button.tsx'
import * as Dialog from '../ui/dialog.tsx'
import * as Field from '../ui/field.tsx'
import { dialogActions, dialogContent } from './styles.ts'

const form = css({ display: 'flex', flexDirection: 'column', gap: '4' })

/** Adds a document by its address; the add-by-url machine holds the form and its errors. */
export function AddByUrlDialog({ actor }: { actor: ActorRefFrom<typeof addByUrlMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'))
  const submitting = useSelector(actor, (s) => s.hasTag('loading'))
  const url = useSelector(actor, (s) => s.context.url)
  const tags = useSelector(actor, (s) => s.context.tags)
  const error = useSelector(actor, (s) => s.context.error)
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && actor.send({ type: 'close' })}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={dialogContent}>
            <Dialog.Title>Add a document by URL</Dialog.Title>
            <Dialog.Description>
              A public web page (such as your trust center) or a link to a PDF, Word or Excel file.
              Quire fetches it and reads it like an upload.
            </Dialog.Description>
            <form
              className={form}
              onSubmit={(event) => {
                event.preventDefault()
                actor.send({ type: 'submit' })
              }}
            >
              <Field.Root invalid={Boolean(error)}>
                <Field.Label>URL</Field.Label>
                <Field.Input
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com/security"
                  value={url}
                  onChange={(event) =>
                    actor.send({ type: 'url.change', value: event.target.value })
                  }
                  autoFocus
                />
                {error && <Field.ErrorText>{error}</Field.ErrorText>}
              </Field.Root>
              <Field.Root>
                <Field.Label>Tags</Field.Label>
                <Field.Input
                  placeholder="Comma-separated, optional"
                  value={tags}
                  onChange={(event) =>
                    actor.send({ type: 'tags.change', value: event.target.value })
                  }
                />
              </Field.Root>
              <div className={dialogActions}>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => actor.send({ type: 'close' })}
                >
                  Cancel
                </Button>
                <Button type="submit" loading={submitting}>
                  Add
                </Button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** Edits one file's tags; the text lives in the file-list machine. */
export function TagsDialog(props: {
  tagging: { name: string; text: string } | null
  onChange: (text: string) => void
  onClose: () => void
  onSave: () => void
}) {
  return (
    <Dialog.Root
      open={props.tagging !== null}
      onOpenChange={(details) => !details.open && props.onClose()}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content className={dialogContent}>
            <Dialog.Title>Edit tags</Dialog.Title>
            <Dialog.Description>{props.tagging?.name}</Dialog.Description>
            <Field.Root>
              <Field.Label>Tags</Field.Label>
              <Field.Input
                value={props.tagging?.text ?? ''}
                onChange={(event) => props.onChange(event.target.value)}
                placeholder="policies, SOC 2"
              />
              <Field.HelperText>Separate tags with commas.</Field.HelperText>
            </Field.Root>
            <div className={dialogActions}>
              <Button variant="outline" onClick={props.onClose}>
                Cancel
              </Button>
              <Button onClick={props.onSave}>Save tags</Button>
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
