import { Link } from '@tanstack/react-router'
import { ArrowRight } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'
import { WORK_GROUP_LABELS, WORK_GROUPS } from '../../../contract/collaboration.ts'
import { MY_WORK_TEXTS, myWorkView } from '../../../machines/my-work/index.ts'
import { type MyWorkActor, useMyWorkActor } from '../../app/inbox.tsx'
import { useView } from '../../app/use-view.ts'
import { AssignmentItem } from '../my-work/assignment-item.tsx'
import { allLink, borderedList, sectionHeading } from './home-styles.ts'

/** Home's My work (issue 29): how much is assigned to me by due date, and the soonest few. */

/** How many of my questions the home page lists. */
const FIRST_FEW = 4

const section = css({ mb: '8' })
const head = wrap({ justify: 'space-between', align: 'center', gap: '3', mb: '3' })
const heading = sectionHeading
const counts = wrap({ gap: '2', mb: '3' })
const count = flex({
  align: 'center',
  gap: '1.5',
  textStyle: 'sm',
  color: 'fg.muted',
  '&[data-group=overdue][data-some]': { color: 'red.text', fontWeight: 'medium' },
  '&:not(:first-child)::before': { content: '"·"', color: 'fg.subtle', mr: '0.5' },
})
const number = css({ fontWeight: 'semibold', fontVariantNumeric: 'tabular-nums' })
const list = borderedList

export function MyWorkSection() {
  const actor = useMyWorkActor()
  return actor ? <MyWorkSummary actor={actor} /> : null
}

function MyWorkSummary(props: { actor: MyWorkActor }) {
  const view = useView(props.actor, myWorkView)
  // nothing to say until something is assigned: the steps below are the place to start
  if (view.total === 0) return null
  const first = view.groups.flatMap((group) => group.items).slice(0, FIRST_FEW)
  return (
    <section className={section} aria-labelledby="home-my-work" data-testid="home-my-work">
      <div className={head}>
        <h2 id="home-my-work" className={heading}>
          {MY_WORK_TEXTS.title}
        </h2>
        <Link to="/my-work" className={allLink}>
          {view.total === 1 ? 'Open my question' : `All ${view.total} questions`}
          <ArrowRight size={14} aria-hidden />
        </Link>
      </div>
      <ul className={counts} aria-label="By due date">
        {WORK_GROUPS.filter((group) => view.counts[group] > 0).map((group) => (
          <li
            key={group}
            className={count}
            data-group={group}
            data-some={view.counts[group] > 0 ? '' : undefined}
          >
            <span className={number}>{view.counts[group]}</span>{' '}
            {WORK_GROUP_LABELS[group].toLowerCase()}
          </li>
        ))}
      </ul>
      <ul className={list}>
        {first.map((item) => (
          <li key={`${item.questionnaire_id}-${item.question_id}`}>
            <AssignmentItem item={item} />
          </li>
        ))}
      </ul>
    </section>
  )
}
