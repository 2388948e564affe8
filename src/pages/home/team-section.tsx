import { Link } from '@tanstack/react-router'
import { AlertTriangle, Users } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { grid, stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type teamOverviewMachine,
  teamOverviewView,
} from '../../../machines/team-overview/index.ts'
import { useView } from '../../app/use-view.ts'
import { focusRing } from '../../components/styles.ts'
import { formatExact, formatRelative } from '../../lib/format.ts'

const columns = grid({
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)' },
  gap: '4',
  mb: '6',
  alignItems: 'start',
})
const box = stack({
  gap: '3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'xl',
  bg: 'bg.default',
  minW: '0',
})
const heading = css({
  display: 'flex',
  gap: '2',
  alignItems: 'center',
  fontWeight: 'semibold',
  textStyle: 'sm',
})
const list = stack({ gap: '2.5', listStyle: 'none', m: '0', p: '0' })
const line = css({ textStyle: 'sm', minW: '0', overflowWrap: 'anywhere' })
const small = css({ textStyle: 'xs', color: 'fg.muted' })
const late = css({ color: 'fg.error', fontWeight: 'medium' })
const link = cx(
  css({
    fontWeight: 'medium',
    color: 'fg.default',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
  }),
  focusRing,
)

/** Home (issue 29): the team's overdue questionnaires and what happened lately. */
export function TeamSection(props: { actor: ActorRefFrom<typeof teamOverviewMachine> }) {
  const view = useView(props.actor, teamOverviewView)
  if (view.loading || (!view.overdue.length && !view.activity.length && !view.error)) return null
  return (
    <section className={columns} aria-label="Your team">
      <div className={box} data-testid="team-overdue">
        <h2 className={heading}>
          <AlertTriangle size={16} aria-hidden /> Overdue questionnaires
        </h2>
        {view.error && <p className={small}>{view.error}</p>}
        {!view.error && !view.overdue.length && (
          <p className={small}>Nothing is overdue. Questionnaires past their due date show here.</p>
        )}
        <ul className={list}>
          {view.overdue.map((item) => (
            <li key={item.id} className={line}>
              <Link to="/questionnaire/$id" params={{ id: item.id }} className={link}>
                {item.name}
              </Link>
              <p className={small}>
                <span className={late}>Due {item.due_date}</span>
                {item.customer ? ` · ${item.customer}` : ''}
                {item.owner ? ` · ${item.owner.name}` : ''} · {item.approved} of {item.questions}{' '}
                approved
              </p>
            </li>
          ))}
        </ul>
      </div>
      <div className={box} data-testid="team-activity">
        <h2 className={heading}>
          <Users size={16} aria-hidden /> Recent activity
        </h2>
        {!view.activity.length && (
          <p className={small}>Assignments, reviews, comments and exports show here.</p>
        )}
        <ul className={list}>
          {view.activity.map((entry) => (
            <li key={entry.id} className={line}>
              <p>
                {entry.by ? <strong>{entry.by.name}: </strong> : null}
                {entry.summary}
              </p>
              <p className={small} title={formatExact(entry.created_at)}>
                {entry.questionnaire && (
                  <Link
                    to="/questionnaire/$id"
                    params={{ id: entry.questionnaire.id }}
                    className={link}
                  >
                    {entry.questionnaire.name}
                  </Link>
                )}{' '}
                · {formatRelative(entry.created_at)}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
