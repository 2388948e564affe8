import { useVirtualizer } from '@tanstack/react-virtual'
import { Flag } from 'lucide-react'
import { type KeyboardEvent, useEffect, useRef } from 'react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { ANSWER_FLAG_LABELS, type QuestionRow } from '../../../contract/questionnaires.ts'
import { ConfidenceBadge, StatusBadge } from './badges.tsx'
import { RowWork } from './workspace-people.tsx'

/**
 * The questions of the chosen tab as a virtualised list: only the rows in view are in the DOM, so
 * 2,000 questions scroll as smoothly as 20. Arrow keys (or j/k) move the focus, Enter edits.
 */

/** A first guess; rows are measured once rendered. */
const ROW_HEIGHT = 80

const scroller = css({
  position: 'relative',
  overflowY: 'auto',
  h: 'full',
  minH: '0',
  outline: 'none',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  _focusVisible: { boxShadow: '0 0 0 2px token(colors.colorPalette.default)' },
})
const rowClass = css({
  position: 'absolute',
  top: '0',
  left: '0',
  w: 'full',
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '5.5rem 1fr' },
  minH: '20',
  gap: { base: '0.5', sm: '3' },
  px: '3',
  py: '2.5',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  cursor: 'pointer',
  textAlign: 'left',
  overflow: 'hidden',
  _hover: { bg: 'bg.subtle' },
  '&[data-focused]': {
    bg: 'colorPalette.a2',
    boxShadow: 'inset 3px 0 0 token(colors.colorPalette.default)',
  },
})
const refClass = css({
  fontFamily: 'mono',
  textStyle: 'xs',
  fontWeight: 'semibold',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  pt: '0.5',
})
const question = css({ textStyle: 'sm', lineClamp: '2', fontWeight: 'medium', minW: '0' })
const bottom = flex({ gap: '2', align: 'center', mt: '1', minW: '0', textStyle: 'xs' })
const preview = css({
  color: 'fg.muted',
  '&[data-note]': { fontStyle: 'italic' },
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  minW: '0',
  flex: '1',
})
/** A flagged answer's marker: a small flag, red when its source changed. */
const flagMarker = css({
  display: 'inline-flex',
  flexShrink: '0',
  color: 'amber.10',
  '&[data-source-changed]': { color: 'red.10' },
})
const choice = css({ fontWeight: 'semibold', color: 'fg.default', whiteSpace: 'nowrap' })

export function AnswerGrid(props: {
  rows: QuestionRow[]
  focusedId: number | null
  onFocus: (id: number) => void
  onKey: (event: KeyboardEvent<HTMLDivElement>) => void
  label: string
}) {
  const parent = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: props.rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  })
  const focusedIndex = props.rows.findIndex((row) => row.id === props.focusedId)

  useEffect(() => {
    if (focusedIndex >= 0) virtualizer.scrollToIndex(focusedIndex, { align: 'auto' })
  }, [focusedIndex, virtualizer])

  return (
    <div
      ref={parent}
      className={scroller}
      role="listbox"
      aria-label={props.label}
      aria-activedescendant={props.focusedId ? `question-${props.focusedId}` : undefined}
      tabIndex={0}
      onKeyDown={props.onKey}
      data-testid="answer-grid"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = props.rows[item.index] as QuestionRow
          return (
            <div
              key={row.id}
              id={`question-${row.id}`}
              role="option"
              aria-selected={row.id === props.focusedId}
              tabIndex={-1}
              className={rowClass}
              data-focused={row.id === props.focusedId ? '' : undefined}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${item.start}px)` }}
              onClick={() => props.onFocus(row.id)}
              onKeyDown={(event) => {
                if (event.key === ' ') props.onFocus(row.id)
              }}
            >
              <span className={refClass}>{row.ref ?? `#${row.position + 1}`}</span>
              <div className={css({ minW: '0' })}>
                <p className={question}>{row.text}</p>
                <div className={bottom}>
                  <StatusBadge status={row.answer.status} />
                  {row.answer.flags.length > 0 && (
                    <span
                      className={flagMarker}
                      data-testid="row-flag"
                      data-source-changed={
                        row.answer.flags.includes('source_changed') ? '' : undefined
                      }
                      role="img"
                      aria-label={row.answer.flags.map((f) => ANSWER_FLAG_LABELS[f]).join(', ')}
                      title={row.answer.flags.map((f) => ANSWER_FLAG_LABELS[f]).join(', ')}
                    >
                      <Flag size={14} aria-hidden />
                    </span>
                  )}
                  {row.answer.choice && <span className={choice}>{row.answer.choice}</span>}
                  <span className={preview} data-note={row.answer.text ? undefined : ''}>
                    {row.answer.text || row.answer.note}
                  </span>
                  {row.answer.status === 'no_answer' && row.candidates.length > 1 && (
                    <span className={choice}>{row.candidates.length - 1} to choose from</span>
                  )}
                  <ConfidenceBadge answer={row.answer} />
                  <RowWork row={row} />
                </div>
              </div>
            </div>
          )
        })}
      </div>
    </div>
  )
}
