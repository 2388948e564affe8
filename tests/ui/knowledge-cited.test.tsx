import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type { AnsweredRow } from '../../contract/knowledge.ts'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import type { OwnerChoices } from '../../machines/owner-choices/index.ts'
import { itemListActors, knowledgeActors } from '../../src/api/knowledge-actors.ts'
import { createKnowledgeLogic } from '../../src/api/knowledge-logic.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { Toaster, ToasterContext } from '../../src/app/toaster.tsx'
import KnowledgeBasePage from '../../src/pages/knowledge-base/knowledge-base-page.tsx'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { readingSession } from '../support/ui-session.ts'

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in globalThis)) vi.stubGlobal('ResizeObserver', ResizeObserverStub)

const row: AnsweredRow = {
  id: 41,
  question: 'Do we encrypt backups?',
  answer: 'Yes',
  detail: '',
  file_id: 4,
  file_name: 'Vendor answers 2024.xlsx',
  location: { sheet: 'Security', row: 12 },
}

/** The page opened at `url`, its lists answering from `items` and `rows` by id; the queries. */
function openAt(url: string) {
  window.history.replaceState(null, '', url)
  const queries: ItemListQuery[] = []
  const items = [
    qaItemOf({ id: 9, question: 'Do you encrypt backups?' }),
    qaItemOf({ id: 10, question: 'Is MFA enforced?' }),
  ]
  const logic = createKnowledgeLogic({
    ...knowledgeActors(),
    ...itemListActors(),
    loadOwnerChoices: fromPromise<OwnerChoices, void>(async () => ({
      people: [],
      reviewCycleDays: 180,
    })),
    loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
      async ({ input }) => {
        queries.push(input)
        const all: { id: number }[] =
          input.kind === 'qa' ? items : input.kind === 'answered' ? [row] : []
        const results = all.filter((entry) => !input.id || entry.id === input.id)
        return { count: results.length, results }
      },
    ),
  })
  render(
    <SessionContext.Provider logic={readingSession}>
      <ToasterContext.Provider>
        <KnowledgeBasePage logic={logic} />
        <Toaster />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )
  return queries
}

afterEach(() => window.history.replaceState(null, '', '/'))

describe('knowledge base opened from a chat citation', () => {
  it('opens the cited Q&A item (?item=), and shows all again on request', async () => {
    const queries = openAt('/knowledge-base?item=9')
    expect(await screen.findByText('The Q&A item cited in the chat.')).toBeTruthy()
    await waitFor(() =>
      expect(queries).toContainEqual(expect.objectContaining({ kind: 'qa', id: 9 })),
    )
    expect(await screen.findByText('Do you encrypt backups?')).toBeTruthy()
    expect(screen.queryByText('Is MFA enforced?')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }))
    expect(await screen.findByText('Is MFA enforced?')).toBeTruthy()
  })

  it('opens the cited row of a completed questionnaire (?row=)', async () => {
    const queries = openAt('/knowledge-base?row=41')
    expect(
      await screen.findByText('The row of a completed questionnaire cited in the chat.'),
    ).toBeTruthy()
    expect(await screen.findByTestId('answered-row')).toBeTruthy()
    expect(queries).toContainEqual(expect.objectContaining({ kind: 'answered', id: 41 }))
    // the Q&A list is not shown above it (a one-row query only counts what exists)
    expect(queries.some((query) => query.kind === 'qa' && query.page_size > 1)).toBe(false)
    expect(screen.queryAllByTestId('kb-item')).toHaveLength(0)
  })
})
