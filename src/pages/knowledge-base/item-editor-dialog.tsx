import { Field as ArkField } from '@ark-ui/react/field'
import { input, textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { COMMON_DROPDOWN_VALUES } from '../../../contract/knowledge.ts'
import {
  type ItemField,
  type itemEditorMachine,
  itemEditorView,
} from '../../../machines/item-editor/index.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { alert, dialogBox, grid2 } from '../../components/styles.ts'
import * as Field from '../../components/ui/field.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'

/** Adds or edits a Q&A or data item, and asks before deleting one. */
export function ItemEditorDialog({ actor }: { actor: ActorRefFrom<typeof itemEditorMachine> }) {
  const view = useView(actor, itemEditorView)
  const change = (field: ItemField) => (event: { target: { value: string } }) =>
    actor.send({ type: 'change', field, value: event.target.value })
  const fieldOf = (
    field: ItemField,
    label: string,
    options: { multiline?: boolean; placeholder?: string; required?: boolean } = {},
  ) => (
    <Field.Root invalid={Boolean(view.errors[field])} required={options.required}>
      <Field.Label>
        {label}
        {options.required && <Field.RequiredIndicator />}
      </Field.Label>
      {options.multiline ? (
        <ArkField.Textarea
          className={textarea({ size: 'md' })}
          rows={5}
          value={view.values[field]}
          onChange={change(field)}
          placeholder={options.placeholder}
        />
      ) : (
        <Field.Input
          className={input({ size: 'md' })}
          value={view.values[field]}
          onChange={change(field)}
          placeholder={options.placeholder}
          list={field === 'dropdown_value' ? 'dropdown-values' : undefined}
        />
      )}
      {view.errors[field] && <Field.ErrorText>{view.errors[field]}</Field.ErrorText>}
    </Field.Root>
  )
  return (
    <>
      <DialogFrame
        open={view.editing}
        onClose={() => actor.send({ type: 'close' })}
        className={dialogBox({ size: 'xl' })}
        title={`${view.id === null ? 'Add' : 'Edit'} ${view.mode === 'qa' ? 'Q&A item' : 'data item'}`}
      >
        <DialogForm onSubmit={() => actor.send({ type: 'submit' })} noValidate>
          {view.mode === 'qa' ? (
            <>
              {fieldOf('question', 'Question', {
                multiline: false,
                required: true,
                placeholder: 'Do you encrypt customer data at rest?',
              })}
              {fieldOf('answer', 'Answer', { multiline: true, required: true })}
              <datalist id="dropdown-values">
                {COMMON_DROPDOWN_VALUES.map((value) => (
                  <option key={value} value={value} />
                ))}
              </datalist>
              <div className={grid2}>
                {fieldOf('dropdown_value', 'Dropdown value', {
                  placeholder: 'Yes, No, N/A…',
                })}
                {fieldOf('tags', 'Tags', { placeholder: 'encryption, SOC 2' })}
              </div>
            </>
          ) : (
            <>
              {fieldOf('title', 'Title', {
                required: true,
                placeholder: 'Data-centre regions',
              })}
              {fieldOf('value', 'Value', {
                multiline: true,
                required: true,
                placeholder: 'Frankfurt (eu-central-1) and Dublin (eu-west-1)',
              })}
              {fieldOf('tags', 'Tags', { placeholder: 'hosting' })}
            </>
          )}
          {fieldOf('source', 'Source', { placeholder: 'Where this comes from (optional)' })}
          {view.failure && <p className={alert}>{view.failure}</p>}
          <DialogActions
            onCancel={() => actor.send({ type: 'close' })}
            confirmLabel="Save"
            busy={view.saving}
          />
        </DialogForm>
      </DialogFrame>
      <ConfirmDialog
        open={view.confirming}
        title={view.mode === 'qa' ? 'Delete this Q&A item?' : 'Delete this data item?'}
        description="It will no longer be used as evidence for new answers."
        confirmLabel="Delete"
        busy={view.deleting}
        error={view.failure}
        onConfirm={() => actor.send({ type: 'delete.confirm' })}
        onCancel={() => actor.send({ type: 'delete.cancel' })}
      />
    </>
  )
}
