import { Link } from '@tanstack/react-router'
import { AlertTriangle, Copy, FileText, Trash2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { Freshness } from '../../../contract/freshness.ts'
import {
  type libraryHealthMachine,
  libraryHealthView,
} from '../../../machines/library-health/index.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { Button } from '../../components/ui/button.tsx'
import { formatDay } from '../../lib/format.ts'

const box = css({
  mb: '4',
  p: '4',
  borderWidth: '1px',
  borderColor: 'amber.a6',
  borderRadius: 'l3',
  bg: 'amber.a2',
  textStyle: 'sm',
})
const summary = css({
  display: 'flex',
  gap: '2',
  alignItems: 'center',
  cursor: 'pointer',
  fontWeight: 'semibold',
  color: 'amber.text',
  mt: '3',
})
const group = css({
  mt: '3',
  p: '3',
  borderRadius: 'l2',
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border.subtle',
})
const item = css({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '2',
  alignItems: 'start',
  py: '2',
  borderTopWidth: '1px',
  borderColor: 'border.subtle',
  _first: { borderTopWidth: '0' },
})
// the four counts: two a row on a phone, four from md up
const tiles = css({
  display: 'grid',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
  gap: '2',
})
const tile = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: '0.5',
  p: '3',
  borderRadius: 'l2',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  bg: 'bg.default',
  textAlign: 'start',
  cursor: 'pointer',
  _hover: { borderColor: 'colorPalette.default', bg: 'bg.subtle' },
  _focusVisible: {
    outline: '2px solid',
    outlineColor: 'colorPalette.default',
    outlineOffset: '1px',
  },
  _disabled: {
    cursor: 'default',
    opacity: '0.7',
    _hover: { borderColor: 'border.subtle', bg: 'bg.default' },
  },
})
const tileCount = css({ textStyle: '2xl', fontWeight: 'semibold', lineHeight: '1' })
const tileLabel = css({ color: 'fg.muted', textStyle: 'xs' })
const note = css({ mt: '3', color: 'fg.default' })
const noteLink = css({
  color: 'colorPalette.text',
  fontWeight: 'medium',
  textDecoration: 'underline',
})
const heading = css({ fontWeight: 'semibold', mb: '2' })
const dated = css({
  display: 'flex',
  gap: '1.5',
  alignItems: 'center',
  mt: '0.5',
  color: 'fg.muted',
  textStyle: 'xs',
})
const newer = css({
  px: '1.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  fontWeight: 'semibold',
})

/** The library's workload: each count opens the list it counts. */
function Counts(props: {
  counts: { stale: number; due: number; source_changed: number; conflicts: number }
  onFreshness: (freshness: Freshness) => void
  onConflicts: () => void
  note: boolean
  onNote: () => void
}) {
  const { counts } = props
  return (
    <div className={tiles}>
      <button
        type="button"
        className={tile}
        disabled={!counts.stale}
        onClick={() => props.onFreshness('stale')}
        data-testid="health-stale"
      >
        <span className={cx(tileCount, counts.stale ? css({ color: 'red.text' }) : undefined)}>
          {counts.stale}
        </span>
        <span className={tileLabel}>Stale: past their review</span>
      </button>
      <button
        type="button"
        className={tile}
        disabled={!counts.due}
        onClick={() => props.onFreshness('due')}
        data-testid="health-due"
      >
        <span className={cx(tileCount, counts.due ? css({ color: 'amber.text' }) : undefined)}>
          {counts.due}
        </span>
        <span className={tileLabel}>Review due soon</span>
      </button>
      <button
        type="button"
        className={tile}
        disabled={!counts.source_changed}
        aria-expanded={props.note}
        onClick={props.onNote}
        data-testid="health-source-changed"
      >
        <span
          className={cx(tileCount, counts.source_changed ? css({ color: 'red.text' }) : undefined)}
        >
          {counts.source_changed}
        </span>
        <span className={tileLabel}>Source changed</span>
      </button>
      <button
        type="button"
        className={tile}
        disabled={!counts.conflicts}
        onClick={props.onConflicts}
        data-testid="health-conflicts"
      >
        <span className={cx(tileCount, counts.conflicts ? css({ color: 'red.text' }) : undefined)}>
          {counts.conflicts}
        </span>
        <span className={tileLabel}>Conflicting answers</span>
      </button>
    </div>
  )
}

/**
 * The library's health: its workload counted (stale, due, source changed, conflicts), each count
 * opening its list, then duplicates and contradicting answers in the library (Q&A items and rows
 * of completed questionnaires), each Q&A item with a way to remove it; a file's row names its file.
 */
export function LibraryHealthPanel(props: {
  actor: ActorRefFrom<typeof libraryHealthMachine>
  onDelete: (id: number) => void
  /** Opens the Q&A list filtered by a freshness. */
  onFreshness: (freshness: Freshness) => void
}) {
  const view = useView(props.actor, libraryHealthView)
  const { groups, counts } = view
  if (!view.visible) return null
  const conflicts = groups.filter((g) => g.kind === 'conflict').length
  if (view.error)
    return (
      <section className={box} aria-labelledby="library-health-heading">
        <h2 id="library-health-heading" className={heading}>
          Library health
        </h2>
        <RetryAlert error={view.error} onRetry={() => props.actor.send({ type: 'retry' })} />
      </section>
    )
  return (
    <section className={box} data-testid="library-health" aria-labelledby="library-health-heading">
      <h2 id="library-health-heading" className={heading}>
        Library health
      </h2>
      <Counts
        counts={counts}
        onFreshness={props.onFreshness}
        onConflicts={() => props.actor.send({ type: 'groups.show' })}
        note={view.note}
        onNote={() => props.actor.send({ type: 'note.toggle' })}
      />
      {view.note && counts.source_changed > 0 && (
        <p className={note} data-testid="health-source-note">
          {counts.source_changed === 1
            ? '1 answer in your questionnaires cites a passage that its document no longer holds as it was.'
            : `${counts.source_changed} answers in your questionnaires cite passages that their documents no longer hold as they were.`}{' '}
          Open each questionnaire to compare the passages, then confirm or regenerate the answers.{' '}
          <Link to="/questionnaires" className={noteLink}>
            Open questionnaires
          </Link>
        </p>
      )}
      {groups.length > 0 && (
        <details
          open={view.open}
          onToggle={(event) => {
            if (event.currentTarget.open !== view.open) props.actor.send({ type: 'groups.toggle' })
          }}
        >
          <summary className={summary}>
            <AlertTriangle size={16} />
            {groups.length} question{groups.length === 1 ? ' is' : 's are'} answered more than once
            {conflicts ? `, ${conflicts} with contradicting answers` : ''}
          </summary>
          {groups.map((entry) => (
            <div key={entry.items.map((i) => `${i.source}${i.id}`).join('-')} className={group}>
              <p className={css({ display: 'flex', gap: '1.5', alignItems: 'center', mb: '1' })}>
                {entry.kind === 'conflict' ? (
                  <strong className={css({ color: 'red.text' })}>Contradicting answers</strong>
                ) : (
                  <>
                    <Copy size={14} /> <strong>Duplicates</strong>
                  </>
                )}
              </p>
              {entry.items.map((qa) => (
                <div key={`${qa.source}-${qa.id}`} className={item}>
                  <div className={css({ minW: '0' })}>
                    <p className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>
                      {qa.question}
                    </p>
                    <p
                      className={css({
                        color: 'fg.muted',
                        lineClamp: '2',
                        overflowWrap: 'anywhere',
                      })}
                    >
                      {qa.dropdown_value ? `${qa.dropdown_value} · ` : ''}
                      {qa.answer}
                    </p>
                    {entry.kind === 'conflict' && (qa.dated_at || qa.newest) && (
                      <p className={dated} data-testid="health-dated">
                        {qa.newest && <span className={newer}>Newer</span>}
                        {qa.dated_at && `Answered ${formatDay(qa.dated_at)}`}
                      </p>
                    )}
                  </div>
                  {qa.source === 'qa' ? (
                    <Button
                      size="xs"
                      variant="ghost"
                      className={css({ colorPalette: 'red' })}
                      onClick={() => props.onDelete(qa.id)}
                      aria-label={`Delete the copy: ${qa.question}`}
                    >
                      <Trash2 /> Delete
                    </Button>
                  ) : (
                    <span
                      className={css({
                        display: 'inline-flex',
                        gap: '1',
                        alignItems: 'center',
                        color: 'fg.muted',
                        textStyle: 'xs',
                        overflowWrap: 'anywhere',
                      })}
                      data-testid="health-file"
                    >
                      <FileText size={12} /> {qa.file_name}
                    </span>
                  )}
                </div>
              ))}
            </div>
          ))}
        </details>
      )}
    </section>
  )
}
