import type { ActorRefFrom } from 'xstate'
import { type addByUrlMachine, addByUrlView } from '../../../machines/add-by-url/index.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../dialog-frame.tsx'
import { dialogBox } from '../styles.ts'
import * as Field from '../ui/field.tsx'

/** Adds a document by its address; the add-by-url machine holds the form and its errors. */
export function AddByUrlDialog({ actor }: { actor: ActorRefFrom<typeof addByUrlMachine> }) {
  const view = useView(actor, addByUrlView)
  return (
    <DialogFrame
      open={view.open}
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox()}
      title="Add a document by URL"
      description="A public web page (such as your trust center) or a link to a PDF, Word or Excel file. Quire fetches it and reads it like an upload."
    >
      <DialogForm onSubmit={() => actor.send({ type: 'submit' })}>
        <Field.Root invalid={Boolean(view.error)}>
          <Field.Label>URL</Field.Label>
          <Field.Input
            type="url"
            inputMode="url"
            placeholder="https://example.com/security"
            value={view.url}
            onChange={(event) => actor.send({ type: 'url.change', value: event.target.value })}
            autoFocus
          />
          {view.error && <Field.ErrorText>{view.error}</Field.ErrorText>}
        </Field.Root>
        <Field.Root>
          <Field.Label>Tags</Field.Label>
          <Field.Input
            placeholder="Comma-separated, optional"
            value={view.tags}
            onChange={(event) => actor.send({ type: 'tags.change', value: event.target.value })}
          />
        </Field.Root>
        <DialogActions
          onCancel={() => actor.send({ type: 'close' })}
          confirmLabel="Add"
          busy={view.submitting}
        />
      </DialogForm>
    </DialogFrame>
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
    <DialogFrame
      open={props.tagging !== null}
      onClose={props.onClose}
      className={dialogBox()}
      title="Edit tags"
      description={props.tagging?.name}
    >
      <Field.Root>
        <Field.Label>Tags</Field.Label>
        <Field.Input
          value={props.tagging?.text ?? ''}
          onChange={(event) => props.onChange(event.target.value)}
          placeholder="policies, SOC 2"
        />
        <Field.HelperText>Separate tags with commas.</Field.HelperText>
      </Field.Root>
      <DialogActions onCancel={props.onClose} confirmLabel="Save tags" onConfirm={props.onSave} />
    </DialogFrame>
  )
}
