import { getRouteApi, Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { ArrowLeft, ClipboardList } from 'lucide-react'
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { customerPageView, isOverdue } from '../../../machines/customer-page/index.ts'
import { type CustomersLogic, createCustomersLogic } from '../../api/work-actors.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { card, metaLine, nameLink } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { DueDate, WorkStatusBadge } from '../../components/work-status.tsx'
import { formatDay } from '../../lib/format.ts'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

const route = getRouteApi('/_app/customers/$id')

// the ghost button's text lines up with the heading under it
const back = css({ mb: '4', ms: '-2.5' })
const yearSection = css({ mb: '6' })
const yearHeading = css({
  textStyle: 'lg',
  fontWeight: 'semibold',
  mb: '2',
  display: 'flex',
  alignItems: 'baseline',
  gap: '2',
})
const yearCount = css({ textStyle: 'sm', fontWeight: 'normal', color: 'fg.muted' })
const list = css({ display: 'flex', flexDirection: 'column', gap: '2' })
const entry = cx(
  card,
  css({
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: '4',
    rowGap: '2',
    px: '4',
  }),
)
const entryName = css({ flex: '1 1 16rem', minW: '0' })
const facts = cx(metaLine, css({ columnGap: '4', textStyle: 'sm' }))
const approved = css({
  fontVariantNumeric: 'tabular-nums',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
})

/**
 * A customer's page (issues 28 and 29): its questionnaires, each year's submissions together,
 * with their status, due date and how many answers are approved.
 */
export function CustomerPage(props: { logic?: CustomersLogic; id: number }) {
  const { id } = props
  const [logic] = useState(() => props.logic ?? createCustomersLogic())
  const page = useActorRef(logic.page, { input: { id } })
  const view = useView(page, customerPageView)
  const customer = view.customer

  return (
    <>
      <Button variant="ghost" size="sm" asChild className={back}>
        <Link to="/customers">
          <ArrowLeft /> Customers
        </Link>
      </Button>
      {view.error && <RetryAlert error={view.error} onRetry={() => page.send({ type: 'retry' })} />}
      {view.loading && (
        <div className={flex({ gap: '2', color: 'fg.muted' })}>
          <Spinner size="sm" /> Loading the customer...
        </div>
      )}
      {customer && (
        <>
          <PageHeader
            title={customer.name}
            description={[
              customer.domain,
              `${customer.questionnaires} questionnaire${customer.questionnaires === 1 ? '' : 's'}`,
              `added ${formatDay(customer.created_at)}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          />
          {view.years.length === 0 && (
            <EmptyState icon={ClipboardList} title="No questionnaires from this customer yet">
              Set the customer in a questionnaire’s work details (its row’s actions on the
              Questionnaires page) and it is listed here under its year.
            </EmptyState>
          )}
          {view.years.map((group) => (
            <section
              key={group.year}
              className={yearSection}
              aria-labelledby={`year-${group.year}`}
              data-testid="customer-year"
            >
              <h3 id={`year-${group.year}`} className={yearHeading}>
                {group.year}
                <span className={yearCount}>
                  {group.questionnaires.length} questionnaire
                  {group.questionnaires.length === 1 ? '' : 's'}
                </span>
              </h3>
              <ul className={list}>
                {group.questionnaires.map((item) => (
                  <li key={item.id} className={entry} data-testid="customer-questionnaire">
                    <div className={entryName}>
                      <Link to="/questionnaire/$id" params={{ id: item.id }} className={nameLink}>
                        {item.name}
                      </Link>
                      <p className={metaLine}>Received {formatDay(item.created_at)}</p>
                    </div>
                    <div className={facts}>
                      <WorkStatusBadge status={item.work_status} />
                      <DueDate
                        date={item.due_date}
                        overdue={isOverdue(item)}
                        prefix={item.due_date ? 'Due ' : undefined}
                      />
                      <span className={approved}>
                        {item.approved.toLocaleString()} of {item.questions.toLocaleString()}{' '}
                        approved
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </>
  )
}

/** The route's page: a new customer's id starts the page afresh. */
export default function CustomerRoutePage() {
  const { id } = route.useParams()
  return <CustomerPage key={id} id={id} />
}
