import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_LLM_SETTINGS, type LlmSettings } from '../../server/answering/llm.ts'

/**
 * A scripted OpenAI-compatible chat-completions server on loopback: the real provider code path,
 * over HTTP. Each request's messages are recorded as one JSON string; `reply` (set per test) turns
 * that string into the object the model answers as JSON text, or throws for a failed call.
 */
export function scriptedLlm(initial: (prompt: string) => object) {
  const prompts: string[] = []
  const state = { reply: initial }
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const request = JSON.parse(body || '{}') as { messages?: { role: string; content: unknown }[] }
    const prompt = JSON.stringify(request.messages ?? [])
    prompts.push(prompt)
    let content: string
    try {
      content = JSON.stringify(state.reply(prompt))
    } catch (error) {
      // a status on the error (400: a request the endpoint refuses, not retried), else 500
      res.statusCode = (error as { status?: number }).status ?? 500
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }))
      return
    }
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'scripted',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
      }),
    )
  })
  return {
    prompts,
    /** What the model answers from now on. */
    set reply(next: (prompt: string) => object) {
      state.reply = next
    },
    /** Listens on a free loopback port; the engine's settings for it. */
    async start(overrides: Partial<LlmSettings> = {}): Promise<LlmSettings> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as AddressInfo
      return {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: 'scripted',
        ...DEFAULT_LLM_SETTINGS,
        ...overrides,
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
