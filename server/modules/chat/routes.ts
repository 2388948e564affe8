import { streamSSE } from 'hono/streaming'
import {
  type ChatReply,
  chatCreateSchema,
  chatExportQuerySchema,
  chatFollowUpQuerySchema,
  chatListQuerySchema,
  chatRenameSchema,
  chatSendSchema,
} from '../../../contract/chat.ts'
import { paths } from '../../../contract/paths.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { attachment } from '../../http/download.ts'
import { areaRouter, idParams, orgOf, routePath } from '../../http/route-kit.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import { conversationMarkdown, conversationPdf } from './export.ts'
import type { ChatService } from './service.ts'

/** Words per streamed token event, and the pause between them (a reader's pace, and a stop). */
const WORDS_PER_TOKEN = 3
const TOKEN_PAUSE_MS = 15

/** The calls of spec section 7 'Chat'; each person's conversations are their own (404 else). */
export function chatRoutes(options: { auth: Authenticator; permit: Permit; chat: ChatService }) {
  const { chat } = options
  const app = areaRouter({ auth: options.auth })
  const read = options.permit('read')

  app.get(paths.chat.sessions, read, async (c) =>
    c.json(await chat.list(c.get('auth'), query(c, chatListQuerySchema).q)),
  )
  app.post(paths.chat.create, read, async (c) => {
    const body = await jsonBody(c, chatCreateSchema)
    return c.json(await chat.create(c.get('auth'), body.title), 201)
  })
  app.post(paths.chat.createUnnamed, read, async (c) =>
    c.json(await chat.create(c.get('auth'), undefined), 201),
  )
  app.get(routePath(paths.chat.session('{id}')), read, async (c) => {
    const { id } = params(c, idParams)
    return c.json(await chat.get(c.get('auth'), id))
  })
  app.post(routePath(paths.chat.update('{id}')), read, async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, chatRenameSchema)
    return c.json(await chat.rename(c.get('auth'), id, body.title))
  })
  for (const method of ['post', 'delete'] as const)
    app[method](routePath(paths.chat.delete('{id}')), read, async (c) => {
      const { id } = params(c, idParams)
      return c.json(await chat.remove(c.get('auth'), id))
    })
  app.get(routePath(paths.chat.export('{id}')), read, async (c) => {
    const { id } = params(c, idParams)
    const { format } = query(c, chatExportQuerySchema)
    const { session, messages } = await chat.get(c.get('auth'), id)
    const name =
      session.title
        .replace(/[^\p{L}\p{N} ._-]+/gu, '')
        .trim()
        .slice(0, 80) || 'conversation'
    if (format === 'pdf')
      return c.body(new Uint8Array(await conversationPdf(session, messages)), 200, {
        'content-type': 'application/pdf',
        'content-disposition': attachment(`${name}.pdf`),
      })
    return c.body(conversationMarkdown(session, messages), 200, {
      'content-type': 'text/markdown; charset=utf-8',
      'content-disposition': attachment(`${name}.md`),
    })
  })
  app.get(paths.chat.dynamicQuestions, read, async (c) => {
    const { session_id } = query(c, chatFollowUpQuerySchema)
    return c.json(await chat.followUps(c.get('auth'), session_id))
  })
  app.get(paths.chat.quota, read, async (c) => c.json(await chat.quota(orgOf(c))))
  app.get(routePath(paths.chat.messages('{id}')), read, async (c) => {
    const { id } = params(c, idParams)
    return c.json(await chat.get(c.get('auth'), id))
  })

  /**
   * POST messages/ {content}: the question is recorded, the answer worked out from the evidence;
   * streamed as server-sent events when the client accepts them (start, token..., citations,
   * done), else one JSON. A client that goes away mid-stream stops it: the part sent is kept,
   * marked stopped.
   */
  app.post(routePath(paths.chat.messages('{id}')), read, async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, chatSendSchema)
    const auth = c.get('auth')
    const asked = await chat.ask(auth, id, body.content)
    if (!c.req.header('accept')?.includes('text/event-stream')) {
      const saved = await chat.saveAnswer(auth, id, { ...asked, status: 'complete' })
      const reply: ChatReply = { question: asked.question, ...saved }
      return c.json(reply)
    }
    // the answer is stored from the start as stopped, and kept up to date as it streams: a
    // client that leaves (Stop) finds what it was sent, however the connection ended
    const { answer } = await chat.saveAnswer(auth, id, {
      content: '',
      citations: asked.citations,
      status: 'stopped',
    })
    return streamSSE(c, async (stream) => {
      let sent = ''
      let aborted = false
      stream.onAbort(async () => {
        aborted = true
        await chat.updateAnswer(answer.id, { content: sent, status: 'stopped' })
      })
      const words = asked.content.split(/(?<=\s)/)
      try {
        await stream.writeSSE({
          event: 'start',
          data: JSON.stringify({ question: asked.question }),
        })
        for (let index = 0; index < words.length && !aborted; index += WORDS_PER_TOKEN) {
          const token = words.slice(index, index + WORDS_PER_TOKEN).join('')
          sent += token
          await stream.writeSSE({ event: 'token', data: JSON.stringify({ text: token }) })
          if ((index / WORDS_PER_TOKEN) % 4 === 0)
            await chat.updateAnswer(answer.id, { content: sent, status: 'stopped' })
          if (index + WORDS_PER_TOKEN < words.length) await stream.sleep(TOKEN_PAUSE_MS)
        }
      } catch {
        aborted = true
      }
      if (aborted) {
        await chat.updateAnswer(answer.id, { content: sent, status: 'stopped' })
        return
      }
      await chat.updateAnswer(answer.id, { content: asked.content, status: 'complete' })
      const saved = await chat.get(auth, id)
      await stream.writeSSE({ event: 'citations', data: JSON.stringify(asked.citations) })
      await stream.writeSSE({
        event: 'done',
        data: JSON.stringify({
          answer: saved.messages.find((message) => message.id === answer.id),
          session: saved.session,
        }),
      })
    })
  })

  return app.app
}
