import { Field as ArkField } from '@ark-ui/react/field'
import { css } from 'styled-system/css'
import { input, textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { DUE_WINDOW_DAYS, MAX_REVIEW_CYCLE_DAYS } from '../../../contract/freshness.ts'
import { COMMON_DROPDOWN_VALUES } from '../../../contract/knowledge.ts'
import {
  type ItemField,
  type itemEditorMachine,
  itemEditorView,
} from '../../../machines/item-editor/index.ts'
import type { ownerChoicesMachine } from '../../../machines/owner-choices/index.ts'
import { useView } from '../../app/use-view.ts'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useOwnerChoices } from '../../components/owner-choices.ts'
import { type ProductChoiceRef, ProductSelect } from '../../components/product-select.tsx'
import { dialogBox, grid2 } from '../../components/styles.ts'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'

const daysInput = css({ mt: '2' })

/**
 * Adds or edits a Q&A or data item, and asks before deleting one. A Q&A item also has an owner
 * (one of the organisation's people, or nobody) and a review cycle (the organisation's, or its own
 * number of days).
 */
export function ItemEditorDialog({
  actor,
  owners,
  products,
}: {
  actor: ActorRefFrom<typeof itemEditorMachine>
  owners: ActorRefFrom<typeof ownerChoicesMachine>
  /** The products a Q&A item may speak for (issue 38). */
  products: ProductChoiceRef
}) {
  const view = useView(actor, itemEditorView)
  const choices = useOwnerChoices(owners, view.owner)
  const orgCycle = choices.reviewCycleDays
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
      <FormDialog
        open={view.editing}
        onClose={() => actor.send({ type: 'close' })}
        className={dialogBox({ size: 'xl' })}
        title={`${view.id === null ? 'Add' : 'Edit'} ${view.mode === 'qa' ? 'Q&A item' : 'data item'}`}
        error={view.failure}
        confirmLabel="Save"
        busy={view.saving}
        onSubmit={() => actor.send({ type: 'submit' })}
      >
        {view.mode === 'qa' ? (
          <>
            {fieldOf('question', 'Question', {
              multiline: false,
              required: true,
              placeholder: 'Do you encrypt customer data at rest?',
            })}
            {fieldOf('answer', 'Answer', { multiline: true, required: true })}
            <ProductSelect
              choices={products}
              label="Speaks for"
              inDialog
              value={view.values.product_id ? Number(view.values.product_id) : null}
              onChange={(productId) =>
                actor.send({
                  type: 'change',
                  field: 'product_id',
                  value: productId ? String(productId) : '',
                })
              }
            />
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
            <div className={grid2}>
              <Field.Root invalid={Boolean(view.errors.owner_id)}>
                <SimpleSelect
                  label="Owner"
                  inDialog
                  size="md"
                  options={choices.options}
                  value={view.values.owner_id}
                  onChange={(value) => actor.send({ type: 'change', field: 'owner_id', value })}
                />
                <Field.HelperText>Keeps the answer true and reviews it.</Field.HelperText>
                {view.errors.owner_id && <Field.ErrorText>{view.errors.owner_id}</Field.ErrorText>}
              </Field.Root>
              <Field.Root invalid={Boolean(view.errors.review_cycle_days)}>
                <SimpleSelect
                  label="Review cycle"
                  inDialog
                  size="md"
                  options={[
                    {
                      value: 'organisation',
                      label: orgCycle
                        ? `Use the organisation’s (${orgCycle} days)`
                        : 'Use the organisation’s',
                    },
                    { value: 'own', label: 'A number of days' },
                  ]}
                  value={view.ownCycle ? 'own' : 'organisation'}
                  onChange={(value) =>
                    actor.send({
                      type: 'cycle.own',
                      own: value === 'own',
                      days: orgCycle ?? undefined,
                    })
                  }
                />
                {view.ownCycle && (
                  <input
                    type="number"
                    className={`${input({ size: 'md' })} ${daysInput}`}
                    aria-label="Review cycle in days"
                    min={1}
                    max={MAX_REVIEW_CYCLE_DAYS}
                    step={1}
                    inputMode="numeric"
                    value={view.values.review_cycle_days}
                    onChange={change('review_cycle_days')}
                  />
                )}
                <Field.HelperText>Due {DUE_WINDOW_DAYS} days before it ends.</Field.HelperText>
                {view.errors.review_cycle_days && (
                  <Field.ErrorText>{view.errors.review_cycle_days}</Field.ErrorText>
                )}
              </Field.Root>
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
      </FormDialog>
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
