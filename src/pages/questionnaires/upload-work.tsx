import { useId } from 'react'
import { css } from 'styled-system/css'
import { grid } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import type { Customer } from '../../../contract/collaboration.ts'
import {
  type ownerChoicesMachine,
  ownerChoicesView,
  ownerOptions,
  ownerSelectOptions,
} from '../../../machines/owner-choices/index.ts'
import type {
  UploadWorkField,
  UploadWorkValues,
} from '../../../machines/questionnaire-list/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { SessionContext } from '../../app/session.tsx'
import { useView } from '../../app/use-view.ts'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'

const row = grid({
  columns: { base: 1, md: 3 },
  gap: '3',
  mb: '3',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
})
const legend = css({ gridColumn: '1 / -1', textStyle: 'sm', color: 'fg.muted' })

/**
 * Issue 39: what the upload asks about the work, each optional: the customer (one of the
 * organisation's by name, or a new one), the due date and the owner of the questionnaires
 * dropped next. The questionnaire's header then shows them.
 */
export function UploadWorkFields(props: {
  values: UploadWorkValues
  customers: Customer[]
  owners: ActorRefFrom<typeof ownerChoicesMachine>
  onChange: (field: UploadWorkField, value: string) => void
}) {
  const listId = useId()
  const choices = useView(props.owners, ownerChoicesView)
  const user = SessionContext.useSelector(selectProfile)?.user ?? null
  const self = user
    ? { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email }
    : null
  const people = ownerOptions(choices.people, self, null)
  return (
    <fieldset className={row} aria-label="About the questionnaires you upload next">
      <p className={legend}>
        About the questionnaires you upload next (optional): whom they are for, when they are due
        and who owns them.
      </p>
      <Field.Root>
        <Field.Label>Customer</Field.Label>
        <Field.Input
          size="md"
          list={listId}
          value={props.values.customer_name}
          placeholder="Acme Corporation"
          onChange={(event) => props.onChange('customer_name', event.target.value)}
        />
        <datalist id={listId}>
          {props.customers.map((customer) => (
            <option key={customer.id} value={customer.name} />
          ))}
        </datalist>
      </Field.Root>
      <Field.Root>
        <Field.Label>Due date</Field.Label>
        <Field.Input
          size="md"
          type="date"
          value={props.values.due_date}
          onChange={(event) => props.onChange('due_date', event.target.value)}
        />
      </Field.Root>
      <SimpleSelect
        label="Owner"
        size="md"
        options={ownerSelectOptions(people, self?.id ?? null)}
        value={props.values.owner_id}
        onChange={(value) => props.onChange('owner_id', value)}
      />
    </fieldset>
  )
}
