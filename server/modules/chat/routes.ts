import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import {
  type ChatReply,
  chatCreateSchema,
  chatListQuerySchema,
  chatRenameSchema,
  chatSendSchema,
} from '../../../contract/chat.ts'
import { paths } from '../../../contract/paths.ts'
import { type AuthEnv, type Authenticator, requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import type { ChatService } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) => decodeURIComponent(path).replace('{id}', ':id{[0-9]+}')

/** Words per streamed token event, and the pause between them (a reader's pace, and a stop). */
const WORDS_PER_TOKEN = 3
const TOKEN_PAUSE_MS = 15

/** The calls of spec section 7 'Chat'; each person's conversations are their own (404 else). */
export function chatRoutes(options: { auth: Authenticator; permit: Permit; chat: ChatService }) {
  const { chat } = options
  const app = new Hono<AuthEnv>()
  const signedIn = requireAuth(options.auth)
  const read = options.permit('read')

  app.get(paths.chat.sessions, signedIn, read, async (c) =>
    c.json(await chat.list(c.get('auth'), query(c, chatListQuerySchema).q)),
  )
  app.post(paths.chat.create, signedIn, read, async (c) => {
    const body = await jsonBody(c, chatCreateSchema)
    return c.json(await chat.create(c.get('auth'), body.title), 201)
  })
  app.post(paths.chat.createUnnamed, signedIn, read, async (c) =>
    c.json(await chat.create(c.get('auth'), undefined), 201),
  )
  app.get(at(paths.chat.session('{id}')), signedIn, read, async (c) => {
    const { id } = params(c, idParams)
    return c.json(await chat.get(c.get('auth'), id))
  })
  app.post(at(paths.chat.update('{id}')), signedIn, read, async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, chatRenameSchema)
    return c.json(await chat.rename(c.get('auth'), id, body.title))
  })
  for (const method of ['post', 'delete'] as const)
    app[method](at(paths.chat.delete('{id}')), signedIn, read, async (c) => {
      const { id } = params(c, idParams)
      return c.json(await chat.remove(c.get('auth'), id))
    })
  app.get(paths.chat.quota, signedIn, read, async (c) =>
    c.json(await chat.quota(c.get('auth').org.id)),
  )
  app.get(at(paths.chat.messages('{id}')), signedIn, read, async (c) => {
    const { id } = params(c, idParams)
    return c.json(await chat.get(c.get('auth'), id))
  })

  /**
   * POST messages/ {content}: the question is recorded, the answer worked out from the evidence;
   * streamed as server-sent events when the client accepts them (start, token..., citations,
   * done), else one JSON. A client that goes away mid-stream stops it: the part sent is kept,
   * marked stopped.
   */
  app.post(at(paths.chat.messages('{id}')), signedIn, read, async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, chatSendSchema)
    const auth = c.get('auth')
    const asked = await chat.ask(auth, id, body.content)
    if (!c.req.header('accept')?.includes('text/event-stream')) {
      const saved = await chat.saveAnswer(auth, id, { ...asked, status: 'complete' })
      const reply: ChatReply = { question: asked.question, ...saved }
      return c.json(reply)
    }
    return streamSSE(c, async (stream) => {
      let aborted = false
      stream.onAbort(() => {
        aborted = true
      })
      await stream.writeSSE({ event: 'start', data: JSON.stringify({ question: asked.question }) })
      const words = asked.content.split(/(?<=\s)/)
      let sent = ''
      for (let index = 0; index < words.length && !aborted; index += WORDS_PER_TOKEN) {
        const token = words.slice(index, index + WORDS_PER_TOKEN).join('')
        await stream.writeSSE({ event: 'token', data: JSON.stringify({ text: token }) })
        sent += token
        if (index + WORDS_PER_TOKEN < words.length) await stream.sleep(TOKEN_PAUSE_MS)
      }
      const complete = !aborted && sent === asked.content
      const saved = await chat.saveAnswer(auth, id, {
        content: complete ? asked.content : sent,
        citations: asked.citations,
        status: complete ? 'complete' : 'stopped',
      })
      if (aborted) return
      await stream.writeSSE({ event: 'citations', data: JSON.stringify(asked.citations) })
      await stream.writeSSE({ event: 'done', data: JSON.stringify(saved) })
    })
  })

  return app
}
