import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { Comment, Person } from '../../contract/collaboration.ts'
import { type CommentAction, commentThreadMachine } from '../../machines/comment-thread/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { CommentThread } from '../../src/components/questionnaire/comment-thread.tsx'
import { commentOf, grace } from '../fixtures/comments.ts'
import { readingSession } from '../support/ui-session.ts'

const logic = (comments: Comment[]) =>
  commentThreadMachine.provide({
    actors: {
      loadComments: fromPromise<Comment[], { questionId: number }>(async () => comments),
      loadPeople: fromPromise<Person[], void>(async () => []),
      act: fromPromise<Comment, CommentAction>(() => new Promise(() => {})),
    },
  })

describe('comment thread', () => {
  it('shows a viewer the threads, replies and resolved ones, with nothing to change', async () => {
    render(
      <SessionContext.Provider logic={readingSession}>
        <CommentThread
          questionId={1}
          logic={logic([
            commentOf(1, { body: 'Which key store?' }),
            commentOf(2, { parent_id: 1, body: 'KMS.' }),
            commentOf(3, {
              body: 'Settled long ago',
              resolved_at: new Date().toISOString(),
              resolved_by: grace,
            }),
          ])}
          mayWrite={false}
          onOpenCount={() => {}}
        />
      </SessionContext.Provider>,
    )
    const region = screen.getByRole('region', { name: 'Comments' })
    expect(await within(region).findByText('Which key store?')).toBeTruthy()
    expect(within(region).getByText('KMS.')).toBeTruthy()
    expect(within(region).getByText(/Resolved by Grace Hopper · 1 comment/)).toBeTruthy()
    expect(within(region).getByTestId('open-threads').textContent).toBe('· 1 open')
    expect(within(region).queryByRole('combobox')).toBeNull()
    expect(within(region).queryByRole('button')).toBeNull()
  })
})
