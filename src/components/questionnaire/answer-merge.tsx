import { GitMerge } from 'lucide-react'
import { css } from 'styled-system/css'
import { grid, stack } from 'styled-system/patterns'
import { COLLABORATION_TEXTS } from '../../../contract/collaboration.ts'
import type { Answer } from '../../../contract/questionnaires.ts'
import type { Draft } from '../../../machines/answer/index.ts'
import { Button } from '../ui/button.tsx'
import { actions, answerBox, choicePill, hint, sectionTitle } from './answer-styles.ts'

/**
 * A save that ran into someone else's change (issue 29): their answer beside the draft, to take
 * theirs, save mine over it, or edit mine further against theirs. Nothing typed is lost.
 */
export function AnswerMerge(props: {
  theirs: Answer
  mine: Draft
  onTheirs: () => void
  onMine: () => void
  onEdit: () => void
}) {
  const { theirs, mine } = props
  const by = theirs.updated_by?.name ?? 'Someone'
  return (
    <div className={stack({ gap: '3' })} role="alert" data-testid="answer-merge">
      <p className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'sm' })}>
        <GitMerge size={16} className={css({ flexShrink: '0', mt: '0.5' })} />
        {COLLABORATION_TEXTS.staleEdit}
      </p>
      <div className={grid({ columns: { base: 1, md: 2 }, gap: '3' })}>
        <Side
          title={`${by}’s answer`}
          choice={theirs.choice}
          text={theirs.text}
          testId="merge-theirs"
        />
        <Side title="Your answer" choice={mine.choice} text={mine.text} testId="merge-mine" />
      </div>
      <div className={actions}>
        <Button size="sm" onClick={props.onEdit}>
          Edit mine
        </Button>
        <Button size="sm" variant="outline" onClick={props.onMine}>
          Save mine
        </Button>
        <Button size="sm" variant="outline" onClick={props.onTheirs}>
          Keep theirs
        </Button>
      </div>
      <p className={hint}>Saving yours replaces theirs; the history can undo either.</p>
    </div>
  )
}

function Side(props: { title: string; choice: string | null; text: string; testId: string }) {
  return (
    <div className={css({ minW: '0' })} data-testid={props.testId}>
      <h3 className={sectionTitle}>{props.title}</h3>
      {props.choice && (
        <p className={css({ mb: '2' })}>
          <span className={choicePill}>{props.choice}</span>
        </p>
      )}
      <div className={answerBox}>{props.text || '—'}</div>
    </div>
  )
}
