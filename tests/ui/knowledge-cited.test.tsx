import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AnsweredRow } from '../../contract/knowledge.ts'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import KnowledgeBasePage from '../../src/pages/knowledge-base/knowledge-base-page.tsx'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { knowledgeLogicOf, ownersOf } from '../support/knowledge-logic.ts'
import { renderInSession } from '../support/ui-render.tsx'

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
  const logic = knowledgeLogicOf(
    async (query) => {
      queries.push(query)
      const all: { id: number }[] =
        query.kind === 'qa' ? items : query.kind === 'answered' ? [row] : []
      const results = all.filter((entry) => !query.id || entry.id === query.id)
      return { count: results.length, results }
    },
    { loadOwnerChoices: ownersOf([]) },
  )
  renderInSession(<KnowledgeBasePage logic={logic} />)
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
