import { fromCallback, fromPromise } from 'xstate'
import * as z from 'zod/mini'
import {
  type ChatMessage,
  type ChatSession,
  chatHistorySchema,
  chatMessageSchema,
  chatQuotaSchema,
  chatSessionListSchema,
  chatSessionSchema,
} from '../../contract/chat.ts'
import { errorText } from '../../contract/errors.ts'
import { API_PREFIX, paths } from '../../contract/paths.ts'
import { citationSchema } from '../../contract/questionnaires.ts'
import type {
  ChatConversationEvents,
  ConversationLoad,
} from '../../machines/chat-conversation/index.ts'
import { type ApiClient, api } from './client.ts'
import { downloadPath, fetchBlob } from './download.ts'
import { readServerEvents } from './event-stream.ts'
import { readTokens } from './tokens.ts'

const doneSchema = z.object({ answer: chatMessageSchema, session: chatSessionSchema })

/**
 * Reads a streamed answer (server-sent events) and hands each event to `emit`; resolves when the
 * stream ends. Aborting the signal stops it (the server keeps the part sent).
 */
export async function readAnswerStream(
  response: Response,
  emit: (event: ChatConversationEvents) => void,
) {
  if (!response.body) return
  await readServerEvents(response.body, (event, data) => {
    if (event === 'token')
      emit({ type: 'stream.token', text: String((data as { text: string }).text) })
    else if (event === 'citations')
      emit({ type: 'stream.citations', citations: z.array(citationSchema).parse(data) })
    else if (event === 'done') emit({ type: 'stream.done', ...doneSchema.parse(data) })
  })
}

/** The real side effects of the chat page. */
export function chatActors(client: ApiClient = api) {
  return {
    loadSessions: fromPromise<ChatSession[], { q: string }>(async ({ input }) => {
      const search = input.q.trim() ? `?${new URLSearchParams({ q: input.q.trim() })}` : ''
      return (await client.get(`${paths.chat.sessions}${search}`, chatSessionListSchema)).results
    }),
    createSession: fromPromise<ChatSession, void>(() =>
      client.post(paths.chat.createUnnamed, {}, chatSessionSchema),
    ),
    renameSession: fromPromise<ChatSession, { id: number; title: string }>(({ input }) =>
      client.post(paths.chat.update(input.id), { title: input.title }, chatSessionSchema),
    ),
    deleteSession: fromPromise<void, { id: number }>(async ({ input }) => {
      await client.requestVoid(paths.chat.delete(input.id), { method: 'POST', body: {} })
    }),
    loadConversation: fromPromise<ConversationLoad, { sessionId: number }>(async ({ input }) => {
      const [history, quota, followUps] = await Promise.all([
        client.get(paths.chat.messages(input.sessionId), chatHistorySchema),
        client.get(paths.chat.quota, chatQuotaSchema),
        client
          .get(
            `${paths.chat.dynamicQuestions}?session_id=${input.sessionId}`,
            z.object({ questions: z.array(z.string()) }),
          )
          .catch(() => ({ questions: [] })),
      ])
      return { messages: history.messages as ChatMessage[], quota, followUps: followUps.questions }
    }),
    openSource: fromPromise<void, { fileId: number; page: number | null }>(async ({ input }) => {
      const blob = await fetchBlob(paths.files.download(input.fileId), client)
      const url = URL.createObjectURL(blob)
      window.open(input.page ? `${url}#page=${input.page}` : url, '_blank', 'noopener')
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    }),
    exportConversation: fromPromise<void, { sessionId: number; format: 'markdown' | 'pdf' }>(
      async ({ input }) =>
        downloadPath(
          `${paths.chat.export(input.sessionId)}?format=${input.format}`,
          `conversation-${input.sessionId}.${input.format === 'pdf' ? 'pdf' : 'md'}`,
          client,
        ),
    ),
    streamAnswer: fromCallback<ChatConversationEvents, { sessionId: number; content: string }>(
      ({ input, sendBack }) => {
        const controller = new AbortController()
        const send = () =>
          fetch(`${API_PREFIX}${paths.chat.messages(input.sessionId)}`, {
            method: 'POST',
            signal: controller.signal,
            headers: {
              authorization: `Bearer ${readTokens().access ?? ''}`,
              'content-type': 'application/json',
              accept: 'text/event-stream',
            },
            body: JSON.stringify({ content: input.content }),
          })
        void (async () => {
          try {
            let response = await send()
            if (response.status === 401 && (await client.refreshTokens())) response = await send()
            if (!response.ok) {
              const body: unknown = await response.json().catch(() => undefined)
              sendBack({
                type: 'stream.error',
                status: response.status,
                message: errorText(body, 'The answer could not be given. Please try again.'),
              })
              return
            }
            await readAnswerStream(response, sendBack)
          } catch (error) {
            if (controller.signal.aborted) return
            sendBack({
              type: 'stream.error',
              status: 0,
              message: error instanceof Error ? error.message : 'Network error',
            })
          }
        })()
        return () => controller.abort()
      },
    ),
  }
}
