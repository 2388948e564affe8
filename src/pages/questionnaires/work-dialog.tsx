import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { Customer } from '../../../contract/collaboration.ts'
import { WORK_STATUS_LABELS, WORK_STATUSES } from '../../../contract/work.ts'
import type { ownerChoicesMachine } from '../../../machines/owner-choices/index.ts'
import {
  NEW_CUSTOMER,
  type WorkField,
  type workDetailsMachine,
  workDetailsView,
} from '../../../machines/work-details/index.ts'
import { useView } from '../../app/use-view.ts'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useOwnerChoices } from '../../components/owner-choices.ts'
import { dialogBox, grid2 } from '../../components/styles.ts'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'

const STATUS_OPTIONS = WORK_STATUSES.map((value) => ({ value, label: WORK_STATUS_LABELS[value] }))
const nameLine = css({ overflowWrap: 'anywhere' })

/**
 * A questionnaire's work details: owner, status, customer (one of the organisation's, or a new
 * one by the name typed), requester and due date.
 */
export function WorkDialog(props: {
  actor: ActorRefFrom<typeof workDetailsMachine>
  owners: ActorRefFrom<typeof ownerChoicesMachine>
  customers: Customer[]
}) {
  const { actor } = props
  const view = useView(actor, workDetailsView)
  const owner = view.questionnaire?.owner
  const owners = useOwnerChoices(
    props.owners,
    owner ? { id: Number(owner.id), name: owner.name } : null,
  )
  const change = (field: WorkField) => (value: string) =>
    actor.send({ type: 'change', field, value })
  const current = view.questionnaire?.customer
  const customerOptions = [
    { value: '', label: 'No customer' },
    ...(current && !props.customers.some((entry) => entry.id === current.id)
      ? [{ value: String(current.id), label: current.name }]
      : []),
    ...props.customers.map((entry) => ({ value: String(entry.id), label: entry.name })),
    { value: NEW_CUSTOMER, label: 'New customer…' },
  ]
  const textField = (
    field: 'customer_name' | 'requester' | 'due_date',
    label: string,
    options: { type?: string; placeholder?: string; helper?: string } = {},
  ) => (
    <Field.Root invalid={Boolean(view.errors[field])}>
      <Field.Label>{label}</Field.Label>
      <Field.Input
        size="md"
        type={options.type ?? 'text'}
        value={view.values[field]}
        placeholder={options.placeholder}
        onChange={(event) => change(field)(event.target.value)}
      />
      {options.helper && <Field.HelperText>{options.helper}</Field.HelperText>}
      {view.errors[field] && <Field.ErrorText>{view.errors[field]}</Field.ErrorText>}
    </Field.Root>
  )
  return (
    <FormDialog
      open={view.open}
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox({ size: 'xl' })}
      title="Work details"
      description={<span className={nameLine}>{view.questionnaire?.name}</span>}
      error={view.failure}
      confirmLabel="Save"
      busy={view.saving}
      onSubmit={() => actor.send({ type: 'submit' })}
    >
      <div className={grid2}>
        <SimpleSelect
          label="Owner"
          inDialog
          size="md"
          options={owners.options}
          value={view.values.owner_id}
          onChange={change('owner_id')}
        />
        <SimpleSelect
          label="Status"
          inDialog
          size="md"
          options={STATUS_OPTIONS}
          value={view.values.work_status}
          onChange={change('work_status')}
        />
      </div>
      <SimpleSelect
        label="Customer"
        inDialog
        size="md"
        options={customerOptions}
        value={view.values.customer}
        onChange={change('customer')}
      />
      {view.values.customer === NEW_CUSTOMER &&
        textField('customer_name', 'New customer’s name', {
          placeholder: 'Acme Corporation',
          helper: 'Added to your customers when you save.',
        })}
      <div className={grid2}>
        {textField('requester', 'Requester', { placeholder: 'Who sent it' })}
        {textField('due_date', 'Due date', { type: 'date' })}
      </div>
    </FormDialog>
  )
}
