import { Link } from '@tanstack/react-router'
import { ListTodo } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'
import { WORK_GROUP_LABELS, WORK_GROUPS } from '../../../contract/collaboration.ts'
import {
  myWorkPageView,
  myWorkView,
  SHOWN_PER_QUESTIONNAIRE,
  MY_WORK_TEXTS as TEXTS,
} from '../../../machines/my-work/index.ts'
import { type MyWorkActor, useMyWorkActor } from '../../app/inbox.tsx'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { pill } from '../../components/styles.ts'
import { Button, Spinner } from '../../components/ui'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { AssignmentItem } from './assignment-item.tsx'

/** /my-work: every question assigned to me, grouped overdue, this week, later, no due date. */

const summary = wrap({ gap: '2', mb: '6' })
const summaryItem = flex({
  align: 'center',
  gap: '2',
  px: '3',
  py: '1.5',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
  color: 'fg.muted',
  '&[data-group=overdue][data-some]': { borderColor: 'red.a6', color: 'red.text', bg: 'red.a2' },
})
const summaryCount = css({
  fontWeight: 'semibold',
  color: 'inherit',
  fontVariantNumeric: 'tabular-nums',
})
const groups = css({ display: 'flex', flexDirection: 'column', gap: '8' })
const groupHead = flex({ align: 'baseline', gap: '2', mb: '2', wrap: 'wrap' })
const groupTitle = css({ textStyle: 'md', fontWeight: 'semibold' })
const groupHint = css({ textStyle: 'xs', color: 'fg.muted' })
const countPill = cx(pill, css({ bg: 'gray.a3', color: 'fg.muted' }))
const overduePill = cx(pill, css({ bg: 'red.a3', color: 'red.text' }))
const filterRow = wrap({ gap: '2', mb: '6' })
const questionnaireBlock = css({ '& + &': { mt: '4' } })
const questionnaireHead = flex({
  align: 'center',
  gap: '1.5',
  mb: '1.5',
  textStyle: 'sm',
  color: 'fg.muted',
  wrap: 'wrap',
  '& a': { color: 'fg.default', fontWeight: 'medium' },
})
const list = css({
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  overflow: 'hidden',
  '& > li + li': { borderTopWidth: '1px', borderColor: 'border.subtle' },
})

export default function MyWorkPage(props: { actor?: MyWorkActor }) {
  const shared = useMyWorkActor()
  const actor = props.actor ?? shared
  return actor ? <MyWork actor={actor} /> : null
}

/** The review states among my questions, each with its count, as a choice (issue 39). */
function WorkFilters(props: { actor: MyWorkActor }) {
  const page = useView(props.actor, myWorkPageView)
  if (page.filters.length < 2 && page.filter === 'all') return null
  const total = page.filters.reduce((sum, entry) => sum + entry.count, 0)
  const chips = [{ state: 'all' as const, label: 'All', count: total }, ...page.filters]
  return (
    <fieldset className={filterRow} aria-label="Show">
      {chips.map((chip) => (
        <Button
          key={chip.state}
          size="xs"
          variant={page.filter === chip.state ? 'solid' : 'outline'}
          aria-pressed={page.filter === chip.state}
          onClick={() => props.actor.send({ type: 'filter.set', filter: chip.state })}
        >
          {chip.label} <span data-testid="work-filter-count">{chip.count}</span>
        </Button>
      ))}
    </fieldset>
  )
}

function MyWork(props: { actor: MyWorkActor }) {
  const view = useView(props.actor, myWorkView)
  const page = useView(props.actor, myWorkPageView)
  return (
    <>
      <PageHeader description={TEXTS.description} />
      {view.error && (
        <RetryAlert error={view.error} onRetry={() => props.actor.send({ type: 'refresh' })} />
      )}
      {!view.loaded && view.loading && <Spinner size="md" label="Reading your work" />}
      {view.loaded && view.total === 0 && (
        <EmptyState icon={ListTodo} title={TEXTS.emptyTitle}>
          {TEXTS.empty}
        </EmptyState>
      )}
      {view.total > 0 && (
        <>
          <ul className={summary} aria-label="By due date">
            {WORK_GROUPS.map((group) => (
              <li
                key={group}
                className={summaryItem}
                data-group={group}
                data-some={view.counts[group] > 0 ? '' : undefined}
              >
                <span className={summaryCount}>{view.counts[group]}</span>{' '}
                {WORK_GROUP_LABELS[group]}
              </li>
            ))}
          </ul>
          <WorkFilters actor={props.actor} />
          <div className={groups}>
            {page.shown.length === 0 && (
              <p className={groupHint}>
                No question of yours is in this state. Show all to see the rest.
              </p>
            )}
            {page.shown.map((group) => (
              <section key={group.group} aria-labelledby={`work-${group.group}`}>
                <div className={groupHead}>
                  <h3 id={`work-${group.group}`} className={groupTitle}>
                    {group.label}
                  </h3>
                  <span className={group.group === 'overdue' ? overduePill : countPill}>
                    {group.items.length}
                  </span>
                  <span className={groupHint}>{group.hint}</span>
                </div>
                {group.questionnaires.map((questionnaire) => (
                  <div key={questionnaire.key} className={questionnaireBlock}>
                    <p className={questionnaireHead}>
                      <Link to="/questionnaire/$id" params={{ id: questionnaire.questionnaireId }}>
                        {questionnaire.name}
                      </Link>
                      {questionnaire.customer && <span> · {questionnaire.customer}</span>}
                      <span className={countPill}>{questionnaire.total}</span>
                    </p>
                    <ul className={list}>
                      {questionnaire.items.map((item) => (
                        <li key={`${item.questionnaire_id}-${item.question_id}`}>
                          <AssignmentItem item={item} underQuestionnaire />
                        </li>
                      ))}
                    </ul>
                    {questionnaire.total > SHOWN_PER_QUESTIONNAIRE && (
                      <Button
                        size="xs"
                        variant="link"
                        className={css({ mt: '1' })}
                        onClick={() =>
                          props.actor.send({
                            type: questionnaire.expanded ? 'collapse' : 'expand',
                            key: questionnaire.key,
                          })
                        }
                      >
                        {questionnaire.expanded
                          ? 'Show fewer'
                          : `Show all ${questionnaire.total} questions`}
                      </Button>
                    )}
                  </div>
                ))}
              </section>
            ))}
          </div>
        </>
      )}
    </>
  )
}
