import { useSelector } from '@xstate/react'
import { AlertTriangle, Copy, FileText, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { libraryHealthMachine } from '../../../machines/library-health/index.ts'
import { Button } from '../../components/ui/button.tsx'

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

/**
 * Duplicates and contradicting answers in the library (Q&A items and rows of completed
 * questionnaires), each Q&A item with a way to remove it; a file's row names its file.
 */
export function LibraryHealthPanel(props: {
  actor: ActorRefFrom<typeof libraryHealthMachine>
  onDelete: (id: number) => void
}) {
  const health = useSelector(props.actor, (s) => s.context.health)
  const groups = health?.groups ?? []
  if (!groups.length) return null
  const conflicts = groups.filter((g) => g.kind === 'conflict').length
  return (
    <details className={box} data-testid="library-health">
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
                <p className={css({ color: 'fg.muted', lineClamp: '2', overflowWrap: 'anywhere' })}>
                  {qa.dropdown_value ? `${qa.dropdown_value} · ` : ''}
                  {qa.answer}
                </p>
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
  )
}
