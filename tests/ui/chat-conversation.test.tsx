import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import { CHAT_TEXTS, type ChatMessage, type ChatSession } from '../../contract/chat.ts'
import {
  type ChatConversationEvents,
  type ConversationLoad,
  chatConversationMachine,
} from '../../machines/chat-conversation/index.ts'
import { Conversation } from '../../src/pages/chat/conversation.tsx'

const session: ChatSession = {
  id: 7,
  title: 'Backups',
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
  message_count: 2,
}
const answer: ChatMessage = {
  id: 2,
  role: 'assistant',
  content:
    'Yes.\n\nAll backups are encrypted with AES-256. [1]\nYour answer to “Do we encrypt backups?”: Yes. [2]\nYour answer to “Do you encrypt backups?”: Yes. [3]',
  citations: [
    {
      source: 'file',
      kind: 'document',
      id: 3,
      title: 'Backup policy.pdf',
      snippet: 'All backups are encrypted with AES-256.',
      location: { page: 2 },
    },
    {
      source: 'file',
      kind: 'library',
      id: 4,
      entry: 41,
      title: 'Vendor answers 2024.xlsx',
      snippet: 'Do we encrypt backups? — Yes',
      location: { sheet: 'Security', row: 12 },
    },
    {
      source: 'qa',
      kind: 'library',
      id: 9,
      title: 'Knowledge base answer',
      snippet: 'Do you encrypt backups? — Yes',
    },
  ],
  status: 'complete',
  created_at: '2026-11-26T00:00:00.000Z',
}

/** The conversation with its history loaded, a language model configured or not. */
function renderConversation(languageModel: boolean) {
  const logic = chatConversationMachine.provide({
    actors: {
      loadConversation: fromPromise<ConversationLoad, { sessionId: number }>(async () => ({
        messages: [answer],
        quota: {
          used: 1,
          limit: 100,
          resets_at: '2026-12-01T00:00:00.000Z',
          language_model: languageModel,
        },
        followUps: [],
      })),
      openSource: fromPromise<void, { fileId: number; page: number | null }>(async () => {}),
      exportConversation: fromPromise<void, { sessionId: number; format: 'markdown' | 'pdf' }>(
        async () => {},
      ),
      streamAnswer: fromCallback<ChatConversationEvents, { sessionId: number; content: string }>(
        () => () => {},
      ),
    },
  })
  return render(
    <Conversation
      logic={logic}
      session={session}
      onChanged={() => {}}
      onRename={() => {}}
      onDelete={() => {}}
    />,
  )
}

describe('chat conversation', () => {
  it('says once, under the composer, that no language model is configured; never in an answer', async () => {
    renderConversation(false)
    const note = await screen.findByText(CHAT_TEXTS.extractiveNote)
    expect(screen.getAllByText(CHAT_TEXTS.extractiveNote)).toHaveLength(1)
    const composer = screen.getByRole('textbox', { name: 'Your question' }).closest('form')
    expect(composer?.nextElementSibling).toBe(note)
    const shown = screen.getByRole('article', { name: 'Answer' })
    expect(shown.textContent).not.toContain(CHAT_TEXTS.extractiveNote)
  })

  it('shows no such note when a language model writes the answers', async () => {
    renderConversation(true)
    await screen.findByRole('article', { name: 'Answer' })
    expect(screen.queryByText(CHAT_TEXTS.extractiveNote)).toBeNull()
  })

  it('opens a cited spreadsheet row or Q&A item in the knowledge base, a document as before', async () => {
    renderConversation(true)
    const sources = within(await screen.findByRole('list', { name: 'Sources' }))
    const href = (name: string) => sources.getByRole('link', { name }).getAttribute('href')
    expect(href('Vendor answers 2024.xlsx')).toBe('/knowledge-base?row=41')
    expect(href('Knowledge base answer')).toBe('/knowledge-base?item=9')
    expect(sources.getByRole('button', { name: 'Backup policy.pdf, page 2' })).toBeTruthy()
  })
})
