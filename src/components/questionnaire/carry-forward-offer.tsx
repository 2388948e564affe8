import { History, RotateCcw, X } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { stack, wrap } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type carryForwardMachine,
  carryForwardView,
} from '../../../machines/carry-forward/index.ts'
import { useView } from '../../app/use-view.ts'
import { formatDay } from '../../lib/format.ts'
import { Button } from '../ui/button.tsx'

/**
 * The offer to start a questionnaire from one answered before (issue 28), and once accepted what
 * was carried forward, changed, new and removed, the removed questions listed.
 */

const box = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'auto 1fr' },
  gap: '3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'blue.a6',
  borderRadius: 'l3',
  bg: 'blue.a2',
  textStyle: 'sm',
})
const icon = css({ color: 'blue.10', display: { base: 'none', md: 'block' }, mt: '0.5' })
const title = css({ fontWeight: 'semibold' })
const counts = wrap({ gap: '2', mt: '1' })
const count = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  textStyle: 'xs',
  whiteSpace: 'nowrap',
})
const removedList = css({
  mt: '1',
  pl: '5',
  listStyleType: 'disc',
  color: 'fg.muted',
  '& li': { overflowWrap: 'anywhere' },
})
const refText = css({ fontFamily: 'mono', fontWeight: 'semibold', color: 'fg.default' })

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`

export function CarryForwardOffer(props: { carry: ActorRefFrom<typeof carryForwardMachine> }) {
  const view = useView(props.carry, carryForwardView)
  const { match } = view
  if (!view.shown || !match) return null
  const send = props.carry.send
  const total = match.identical + match.changed + match.new

  if (view.result) {
    const result = view.result
    return (
      <section className={box} aria-label="Started from an earlier questionnaire" role="status">
        <History size={20} className={icon} aria-hidden />
        <div className={stack({ gap: '2', minW: '0' })}>
          <p className={title}>Started from {match.name}</p>
          <ul className={counts} aria-label="What was carried forward">
            <li className={count}>
              {plural(result.carried, 'answer carried forward', 'answers carried forward')}
            </li>
            <li className={count}>
              {plural(result.changed, 'question changed', 'questions changed')}
            </li>
            <li className={count}>{plural(result.new, 'new question', 'new questions')}</li>
            <li className={count}>
              {plural(result.removed, 'question removed', 'questions removed')}
            </li>
          </ul>
          <p className={css({ color: 'fg.muted' })}>
            Carried answers stay approved while their review is current, else they wait for
            approval. Reworded questions show what changed and are drafted afresh
            {result.generating ? ' (drafting now)' : ''}.
          </p>
          {result.removed_questions.length > 0 && (
            <div>
              <p className={css({ fontWeight: 'medium' })}>No longer asked:</p>
              <ul className={removedList} aria-label="Removed questions">
                {result.removed_questions.map((question, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: removed questions may share words
                  <li key={index}>
                    {question.ref && <span className={refText}>{question.ref} </span>}
                    {question.text}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div>
            <Button size="sm" variant="outline" onClick={() => send({ type: 'dismiss' })}>
              <X /> Close
            </Button>
          </div>
        </div>
      </section>
    )
  }

  return (
    <section className={box} aria-label="Answered before">
      <History size={20} className={icon} aria-hidden />
      <div className={stack({ gap: '2', minW: '0' })}>
        <p>
          <span className={title}>
            This looks like {match.name}, answered {formatDay(match.created_at)}
          </span>
          : {match.identical.toLocaleString()} of {total.toLocaleString()} questions are the same.
          Start from it?
        </p>
        <p className={css({ color: 'fg.muted' })}>
          {plural(match.approved, 'approved answer', 'approved answers')} carry forward;{' '}
          {plural(match.changed, 'reworded question is', 'reworded questions are')} drafted afresh.
        </p>
        {view.error && (
          <p className={css({ color: 'fg.error' })} role="alert">
            {view.error}
          </p>
        )}
        <div className={cx(wrap({ gap: '2' }))}>
          {view.error ? (
            <Button size="sm" onClick={() => send({ type: 'retry' })}>
              <RotateCcw /> Try again
            </Button>
          ) : (
            <Button size="sm" loading={view.busy} onClick={() => send({ type: 'accept' })}>
              Start from it
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            disabled={view.busy}
            onClick={() => send({ type: 'dismiss' })}
          >
            Not now
          </Button>
        </div>
      </div>
    </section>
  )
}
