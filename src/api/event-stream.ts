import { API_PREFIX } from '../../contract/paths.ts'
import { RESYNC_EVENT } from '../../contract/streams.ts'
import type { ApiClient } from './client.ts'
import { readTokens } from './tokens.ts'

/** The server refused the stream: too many open for this person (429), to try after a while. */
export class StreamRefused extends Error {
  readonly retryAfterS: number
  constructor(retryAfterS: number) {
    super('Too many live streams are open')
    this.retryAfterS = retryAfterS
  }
}

/**
 * A server-sent-events stream of the API, read over fetch (EventSource cannot send the Bearer
 * token): one refresh and retry on a 401, then each event handed over by name with its JSON data.
 * Resolves when the stream ends or is aborted; rejects when it cannot be opened (with
 * StreamRefused, and the server's Retry-After, when it is over its cap).
 */
export async function readEventStream(
  client: Pick<ApiClient, 'refreshTokens'>,
  path: string,
  handlers: { onOpen?: () => void; onEvent: (type: string, data: unknown) => void },
  signal: AbortSignal,
) {
  const open = () =>
    fetch(`${API_PREFIX}${path}`, {
      signal,
      headers: {
        authorization: `Bearer ${readTokens().access ?? ''}`,
        accept: 'text/event-stream',
      },
    })
  let response = await open()
  if (response.status === 401 && (await client.refreshTokens())) response = await open()
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'))
    throw new StreamRefused(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 30)
  }
  if (!response.ok || !response.body) throw new Error(`The live stream answered ${response.status}`)
  handlers.onOpen?.()
  try {
    await readServerEvents(response.body, handlers.onEvent)
  } catch (error) {
    if (!signal.aborted) throw error
  }
}

/**
 * Reads a body of server-sent events and hands each event over by name with its JSON data;
 * resolves when the body ends.
 */
export async function readServerEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (type: string, data: unknown) => void,
) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf('\n\n')
      const type = /^event: (.+)$/m.exec(block)?.[1]
      const data = /^data: (.+)$/m.exec(block)?.[1]
      if (type && data) onEvent(type, JSON.parse(data))
    }
  }
}

/** What every live stream tells its machine besides its own events. */
export type StreamLifecycleEvent =
  | { type: 'stream.open' }
  | { type: 'stream.closed' }
  | { type: 'stream.refused'; retryAfterS: number }
  | { type: 'stream.resync' }

/**
 * Follows a stream for a machine's callback actor: `stream.open` once it is open, the stream's
 * own events to `onEvent`, `stream.resync` when the server says it may have missed events,
 * `stream.refused` when it is over its cap (429) and `stream.closed` when it ends or cannot be
 * opened. Returns the actor's cleanup, which hangs up.
 */
export function followStream(
  client: Pick<ApiClient, 'refreshTokens'>,
  path: string,
  sendBack: (event: StreamLifecycleEvent) => void,
  onEvent: (type: string, data: unknown) => void,
) {
  const controller = new AbortController()
  let refused = false
  void readEventStream(
    client,
    path,
    {
      onOpen: () => sendBack({ type: 'stream.open' }),
      onEvent: (type, data) =>
        type === RESYNC_EVENT ? sendBack({ type: 'stream.resync' }) : onEvent(type, data),
    },
    controller.signal,
  )
    .catch((error: unknown) => {
      if (!(error instanceof StreamRefused)) return
      refused = true
      sendBack({ type: 'stream.refused', retryAfterS: error.retryAfterS })
    })
    .then(() => {
      if (!controller.signal.aborted && !refused) sendBack({ type: 'stream.closed' })
    })
  return () => controller.abort()
}
