import { Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { ArrowLeft, Building2, Plus } from 'lucide-react'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { type CustomerField, customerListView } from '../../../machines/customer-list/index.ts'
import { type CustomersLogic, createCustomersLogic } from '../../api/work-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { RetryAlert } from '../../components/row-actions.tsx'
import {
  alert,
  dataTable,
  dialogBox,
  nameLink,
  tableWrap,
  toolbar,
} from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatDay } from '../../lib/format.ts'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

const hideSmall = css({ display: { base: 'none', sm: 'table-cell' } })
const numeric = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })
const domainSmall = css({
  display: { base: 'block', sm: 'none' },
  color: 'fg.muted',
  textStyle: 'xs',
  overflowWrap: 'anywhere',
})

/**
 * The customers the organisation keeps (issue 29): name, domain and how many questionnaires each
 * sent; "New customer" adds one by name and domain.
 */
export default function CustomersPage(props: { logic?: CustomersLogic }) {
  const [logic] = useState(() => props.logic ?? createCustomersLogic())
  const list = useActorRef(logic.list)
  const toaster = ToasterContext.useActorRef()
  const view = useView(list, customerListView)
  useEmitted(
    () => [
      list.on('created', (event) =>
        toaster.send({
          type: 'toast.show',
          toast: { type: 'success', title: `${event.customer.name} added` },
        }),
      ),
    ],
    [list, toaster],
  )
  const newButton = (
    <Button onClick={() => list.send({ type: 'create.open' })}>
      <Plus /> New customer
    </Button>
  )
  const fieldOf = (field: CustomerField, label: string, placeholder: string) => (
    <Field.Root invalid={Boolean(view.errors[field])} required={field === 'name'}>
      <Field.Label>
        {label}
        {field === 'name' && <Field.RequiredIndicator />}
      </Field.Label>
      <Field.Input
        size="md"
        value={view.values[field]}
        placeholder={placeholder}
        onChange={(event) => list.send({ type: 'create.change', field, value: event.target.value })}
      />
      {view.errors[field] && <Field.ErrorText>{view.errors[field]}</Field.ErrorText>}
    </Field.Root>
  )

  return (
    <>
      <PageHeader
        description="The companies that send you questionnaires. Each one’s page lists what it sent, year by year."
        actions={
          <div className={toolbar}>
            <Button variant="outline" asChild>
              <Link to="/questionnaires">
                <ArrowLeft /> Questionnaires
              </Link>
            </Button>
            {newButton}
          </div>
        }
      />
      {view.error && <RetryAlert error={view.error} onRetry={() => list.send({ type: 'retry' })} />}
      {view.loading ? (
        <div className={flex({ gap: '2', color: 'fg.muted' })}>
          <Spinner size="sm" /> Loading customers...
        </div>
      ) : view.customers.length === 0 ? (
        !view.error && (
          <EmptyState icon={Building2} title="No customers yet" action={newButton}>
            Add the companies that send you questionnaires, or name one in a questionnaire’s work
            details. Each customer’s page keeps every year’s submission together.
          </EmptyState>
        )
      ) : (
        <div className={tableWrap}>
          <table className={dataTable}>
            <thead>
              <tr>
                <th>Name</th>
                <th className={hideSmall}>Domain</th>
                <th className={numeric} data-align="end">
                  Questionnaires
                </th>
                <th className={hideSmall}>Added</th>
              </tr>
            </thead>
            <tbody>
              {view.customers.map((customer) => (
                <tr key={customer.id} data-testid="customer-row">
                  <td>
                    <Link to="/customers/$id" params={{ id: customer.id }} className={nameLink}>
                      {customer.name}
                    </Link>
                    {customer.domain && <span className={domainSmall}>{customer.domain}</span>}
                  </td>
                  <td className={hideSmall}>{customer.domain ?? '—'}</td>
                  <td className={numeric}>{customer.questionnaires.toLocaleString()}</td>
                  <td className={hideSmall}>{formatDay(customer.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DialogFrame
        open={view.creating}
        onClose={() => list.send({ type: 'create.close' })}
        className={dialogBox({ size: 'md' })}
        title="New customer"
      >
        <DialogForm onSubmit={() => list.send({ type: 'create.submit' })} noValidate>
          {fieldOf('name', 'Name', 'Acme Corporation')}
          {fieldOf('domain', 'Domain', 'acme.com')}
          {view.failure && (
            <p className={alert} role="alert">
              {view.failure}
            </p>
          )}
          <DialogActions
            onCancel={() => list.send({ type: 'create.close' })}
            confirmLabel="Add customer"
            busy={view.saving}
          />
        </DialogForm>
      </DialogFrame>
    </>
  )
}
