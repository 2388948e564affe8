import { useSelector } from '@xstate/react'
import { useId } from 'react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import type { QuestionRow } from '../../../contract/questionnaires.ts'
import { type answerMachine, selectDraft } from '../../../machines/answer/index.ts'
import { fieldLabel } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { SimpleSelect } from '../ui/select.tsx'
import { actions, hint } from './answer-styles.ts'

/** The answer being edited: its value (when the cell has a vocabulary), its text and comment. */
export function AnswerEditor(props: {
  answer: ActorRefFrom<typeof answerMachine>
  row: QuestionRow
}) {
  const { answer } = props
  const draft = useSelector(answer, selectDraft)
  const textId = useId()
  const commentId = useId()
  const vocabulary = props.row.vocabulary ?? []
  const showChoice = vocabulary.length > 0
  return (
    <form
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
      onSubmit={(event) => {
        event.preventDefault()
        answer.send({ type: 'save' })
      }}
      onKeyDown={(event) => {
        // an Escape that closed the value's list (it prevents the default) keeps the editor open
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.stopPropagation()
          answer.send({ type: 'cancel' })
        }
        if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
          event.preventDefault()
          answer.send({ type: 'save' })
        }
      }}
    >
      {showChoice && (
        <SimpleSelect
          label="Answer value"
          inDialog
          size="md"
          options={[
            { value: '', label: 'No value' },
            ...vocabulary.map((value) => ({ value, label: value })),
          ]}
          value={draft.choice ?? ''}
          onChange={(value) => answer.send({ type: 'change', field: 'choice', value })}
        />
      )}
      <div>
        <label className={fieldLabel} htmlFor={textId}>
          {showChoice ? 'Explanation' : 'Answer'}
        </label>
        <textarea
          id={textId}
          className={textarea({ size: 'md' })}
          rows={6}
          // biome-ignore lint/a11y/noAutofocus: the editor opens on purpose, by a click or a key
          autoFocus
          value={draft.text}
          onChange={(event) =>
            answer.send({ type: 'change', field: 'text', value: event.target.value })
          }
        />
      </div>
      <div>
        <label className={fieldLabel} htmlFor={commentId}>
          Comment in the customer’s file
        </label>
        <textarea
          id={commentId}
          className={textarea({ size: 'sm' })}
          rows={2}
          value={draft.comment}
          onChange={(event) =>
            answer.send({ type: 'change', field: 'comment', value: event.target.value })
          }
        />
      </div>
      <div className={actions}>
        <Button type="submit" size="sm">
          Save
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => answer.send({ type: 'cancel' })}
        >
          Cancel
        </Button>
        <span className={hint}>Ctrl+Enter saves, Esc cancels</span>
      </div>
    </form>
  )
}
