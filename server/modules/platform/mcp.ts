import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { type Context, Hono } from 'hono'
import { API_PREFIX } from '../../../contract/paths.ts'
import { API_KEY_TEXTS } from '../../../contract/platform.ts'
import { type Authenticator, bearerToken } from '../../auth/middleware.ts'
import { createMcpServer, keyCaller } from './mcp-tools.ts'

/**
 * /mcp (issue 41): the MCP server over streamable HTTP, for an API key only. Each request is
 * served by a server of its own (stateless: any node answers any request), whose tools call the
 * API in this process with the same key.
 */
export function mcpRoutes(options: {
  auth: Authenticator
  /** The app's own fetch: the tools' calls go through every check a program's calls meet. */
  fetch: (request: Request) => Response | Promise<Response>
}) {
  const app = new Hono()
  const refuse = (c: Context, status: 401 | 405, error: string) =>
    c.json({ jsonrpc: '2.0', error: { code: -32001, message: error }, id: null }, status, {
      ...(status === 401 ? { 'WWW-Authenticate': 'Bearer realm="quire-mcp"' } : {}),
    })
  app.all('/mcp', async (c) => {
    if (c.req.method !== 'POST') return refuse(c, 405, 'POST a JSON-RPC message to /mcp.')
    const key = bearerToken(c.req.header('authorization'))
    const auth = key?.startsWith('qk_') ? await options.auth.authenticate(key) : null
    if (!key || !auth?.apiKey) return refuse(c, 401, API_KEY_TEXTS.mcpKey)
    const call = keyCaller(key, async (path, init) =>
      options.fetch(new Request(`http://quire.internal${API_PREFIX}${path}`, init)),
    )
    const server = createMcpServer(call)
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw)
    } finally {
      void server.close()
    }
  })
  return app
}
