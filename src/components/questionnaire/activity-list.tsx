import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  activityView,
  type questionnaireActivityMachine,
} from '../../../machines/questionnaire-activity/index.ts'
import { useView } from '../../app/use-view.ts'
import { formatExact } from '../../lib/format.ts'
import { RelativeTime } from '../relative-time.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { sectionTitle } from './answer-styles.ts'

const list = stack({ gap: '3', listStyle: 'none', p: '0', m: '0' })
const item = css({
  textStyle: 'sm',
  borderLeftWidth: '2px',
  borderColor: 'border.default',
  ps: '3',
})
const small = css({ textStyle: 'xs', color: 'fg.muted' })

/** Who assigned, answered, commented, approved and exported what, newest first (issue 29). */
export function ActivityList(props: { actor: ActorRefFrom<typeof questionnaireActivityMachine> }) {
  const view = useView(props.actor, activityView)
  return (
    <section aria-label="Activity" className={css({ mt: '6' })}>
      <h3 className={sectionTitle}>Activity</h3>
      {view.loading && <Spinner size="sm" />}
      {view.error && <p className={css({ color: 'fg.error', textStyle: 'sm' })}>{view.error}</p>}
      {!view.loading && !view.error && !view.entries.length && (
        <p className={small}>Nobody has assigned, reviewed, commented or exported yet.</p>
      )}
      <ol className={list} data-testid="activity">
        {view.entries.map((entry) => (
          <li key={entry.id} className={item} data-kind={entry.kind}>
            <p>{entry.summary}</p>
            <p className={small} title={formatExact(entry.created_at)}>
              {entry.by ? `${entry.by.name} · ` : ''}
              <RelativeTime iso={entry.created_at} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  )
}
