import { Link } from '@tanstack/react-router'
import { Users } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type teamOverviewMachine,
  teamOverviewView,
} from '../../../machines/team-overview/index.ts'
import { useView } from '../../app/use-view.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { focusRing } from '../../components/styles.ts'
import { formatExact } from '../../lib/format.ts'

const box = stack({
  gap: '3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'xl',
  bg: 'bg.default',
  minW: '0',
  mb: '8',
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
const link = cx(
  css({
    fontWeight: 'medium',
    color: 'fg.default',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
  }),
  focusRing,
)

/** Home (issues 29 and 30): what the team did lately. */
export function TeamSection(props: { actor: ActorRefFrom<typeof teamOverviewMachine> }) {
  const view = useView(props.actor, teamOverviewView)
  if (view.loading || view.error || !view.activity.length) return null
  return (
    <section className={box} aria-labelledby="home-activity" data-testid="team-activity">
      <h2 id="home-activity" className={heading}>
        <Users size={16} aria-hidden /> Recent activity
      </h2>
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
              · <RelativeTime iso={entry.created_at} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
