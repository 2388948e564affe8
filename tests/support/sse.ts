import { apiPath } from '../../contract/paths.ts'
import type { Requester } from './api-call.ts'

// biome-ignore lint/suspicious/noExplicitAny: event data is read field by field
type Data = any

export interface SseEvent {
  event: string
  data: Data
}

/**
 * A server-sent-events response read event by event: `next` waits for the first event that
 * matches, `ended` says whether the server closed it, `close` hangs up.
 */
export function readEvents(res: Response, abort?: AbortController) {
  const events: SseEvent[] = []
  let buffer = ''
  let ended = false
  let endedAt: number | null = null
  const reader = res.body?.getReader()
  const pump = (async () => {
    if (!reader || res.status !== 200) return
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += decoder.decode(value, { stream: true })
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
          cut = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // aborted
    }
    ended = true
    endedAt = Date.now()
  })()
  /** The first event from `from` on that matches. */
  async function next(match: (event: SseEvent) => boolean, from = 0, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const found = events.slice(from).find(match)
      if (found) return found
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`no such event; got ${JSON.stringify(events)}`)
  }
  return {
    status: res.status,
    headers: res.headers,
    contentType: res.headers.get('content-type'),
    events,
    next,
    ended: () => ended,
    endedAt: () => endedAt,
    /** Resolves when the server has closed the stream. */
    finished: pump,
    close: async () => {
      abort?.abort()
      await reader?.cancel().catch(() => {})
      await pump
    },
  }
}

export type EventReader = ReturnType<typeof readEvents>

/** A JSON POST (path without /api/v1) that asks for its answer as server-sent events. */
export const postForEvents = (
  request: Requester,
  path: string,
  token: string,
  body: unknown,
  signal?: AbortSignal,
) =>
  request(apiPath(path), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
    signal,
  })
