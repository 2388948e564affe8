import type { KeyboardEvent, SyntheticEvent } from 'react'
import { useId } from 'react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { MAX_COMMENT_BODY } from '../../../contract/collaboration.ts'
import type {
  Composer,
  commentThreadMachine,
  MentionQuery,
} from '../../../machines/comment-thread/index.ts'
import { Button } from '../ui/button.tsx'
import { actions, hint } from './answer-styles.ts'

const suggestionList = css({
  position: 'absolute',
  insetX: '0',
  top: '100%',
  mt: '1',
  zIndex: 'dropdown',
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l2',
  boxShadow: 'md',
  py: '1',
  maxH: '14rem',
  overflowY: 'auto',
})
const suggestion = css({
  display: 'flex',
  alignItems: 'baseline',
  gap: '2',
  px: '3',
  py: '1.5',
  cursor: 'pointer',
  textStyle: 'sm',
  '&[aria-selected=true]': { bg: 'colorPalette.a3', colorPalette: 'accent' },
  _hover: { bg: 'bg.subtle' },
})
const email = css({ color: 'fg.muted', textStyle: 'xs', truncate: true, minW: '0' })

const LABELS = { new: 'Comment', reply: 'Send reply', edit: 'Save' } as const
const FIELD_LABELS = { new: 'New comment', reply: 'Reply', edit: 'Comment text' } as const
const PLACEHOLDERS = {
  new: 'Write a comment. Type @ to mention someone.',
  reply: 'Reply to this thread. Type @ to mention someone.',
  edit: '',
} as const

/**
 * The comment being written: a textarea whose "@name" opens the suggestions of the organisation's
 * people (Up/Down move, Enter or Tab or a click chooses, Escape closes), Ctrl+Enter sends.
 */
export function CommentComposer(props: {
  thread: ActorRefFrom<typeof commentThreadMachine>
  composer: Composer
  mention: MentionQuery | null
  sending: boolean
}) {
  const { thread, composer, mention } = props
  const id = useId()
  const listId = `${id}-people`
  const optionId = (index: number) => `${id}-person-${index}`
  const caretOf = (event: SyntheticEvent<HTMLTextAreaElement>) =>
    thread.send({
      type: 'body.change',
      body: event.currentTarget.value,
      caret: event.currentTarget.selectionStart,
    })

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const key = event.key
    if (mention) {
      if (key === 'ArrowDown' || key === 'ArrowUp') {
        event.preventDefault()
        thread.send({ type: 'mention.move', by: key === 'ArrowDown' ? 1 : -1 })
        return
      }
      if (key === 'Enter' || key === 'Tab') {
        event.preventDefault()
        thread.send({ type: 'mention.choose' })
        return
      }
      if (key === 'Escape') {
        event.preventDefault()
        event.stopPropagation()
        thread.send({ type: 'mention.close' })
        return
      }
    }
    if (key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      thread.send({ type: 'submit' })
    } else if (key === 'Escape' && composer.mode !== 'new') {
      event.stopPropagation()
      thread.send({ type: 'compose.cancel' })
    }
  }

  return (
    <form
      className={css({ display: 'grid', gap: '2' })}
      onSubmit={(event) => {
        event.preventDefault()
        thread.send({ type: 'submit' })
      }}
    >
      <div className={css({ position: 'relative' })}>
        <textarea
          className={textarea({ size: 'sm' })}
          rows={composer.mode === 'new' ? 2 : 3}
          aria-label={FIELD_LABELS[composer.mode]}
          placeholder={PLACEHOLDERS[composer.mode]}
          maxLength={MAX_COMMENT_BODY}
          value={composer.body}
          disabled={props.sending}
          // biome-ignore lint/a11y/noAutofocus: a reply or an edit opens on purpose, by a click
          autoFocus={composer.mode !== 'new'}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={mention !== null}
          aria-controls={listId}
          aria-activedescendant={mention ? optionId(mention.highlight) : undefined}
          onChange={caretOf}
          onSelect={caretOf}
          onKeyDown={onKeyDown}
        />
        {mention && (
          <div id={listId} role="listbox" aria-label="People to mention" className={suggestionList}>
            {mention.matches.map((person, index) => (
              <div
                key={person.id}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === mention.highlight}
                className={suggestion}
                // keep the focus (and the caret) in the textarea
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => thread.send({ type: 'mention.choose', personId: person.id })}
                onKeyDown={() => {}}
              >
                <span className={css({ fontWeight: 'medium', whiteSpace: 'nowrap' })}>
                  {person.name}
                </span>
                <span className={email}>{person.email}</span>
              </div>
            ))}
          </div>
        )}
      </div>
      {(composer.mode !== 'new' || composer.body.trim() !== '') && (
        <div className={actions}>
          <Button size="xs" type="submit" loading={props.sending}>
            {LABELS[composer.mode]}
          </Button>
          <Button
            size="xs"
            variant="ghost"
            type="button"
            onClick={() => thread.send({ type: 'compose.cancel' })}
          >
            Cancel
          </Button>
          <span className={hint}>Ctrl+Enter sends</span>
        </div>
      )}
    </form>
  )
}
