import { API_PREFIX } from '../../contract/paths.ts'
import type { ApiClient } from './client.ts'
import { readTokens } from './tokens.ts'

/**
 * A server-sent-events stream of the API, read over fetch (EventSource cannot send the Bearer
 * token): one refresh and retry on a 401, then each event handed over by name with its JSON data.
 * Resolves when the stream ends or is aborted; rejects when it cannot be opened.
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
  if (!response.ok || !response.body) throw new Error(`The live stream answered ${response.status}`)
  handlers.onOpen?.()
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
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
        if (type && data) handlers.onEvent(type, JSON.parse(data))
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error
  }
}
