import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { API_PREFIX } from '../contract/paths.ts'
import { createMcpServer, keyCaller } from '../server/modules/platform/mcp-tools.ts'

/**
 * `npm run mcp`: Quire's MCP server on stdio, for desktop clients (issue 41). It calls a Quire
 * server over HTTP with an API key: QUIRE_URL (http://localhost:3000 by default) and
 * QUIRE_API_KEY (qk_…, from Settings → API keys). `upload_questionnaire` may also read a file
 * of this machine by its path.
 */
const base = (process.env.QUIRE_URL ?? 'http://localhost:3000').replace(/\/+$/, '')
const key = process.env.QUIRE_API_KEY ?? ''
if (!key.startsWith('qk_')) {
  process.stderr.write('Set QUIRE_API_KEY to an API key (qk_…) made in Settings → API keys.\n')
  process.exit(2)
}

const call = keyCaller(key, (at, init) => fetch(`${base}${API_PREFIX}${at}`, init))

const server = createMcpServer(call, {
  readPath: async (file) => ({
    name: path.basename(file),
    bytes: new Uint8Array(await readFile(path.resolve(file))),
  }),
})
await server.connect(new StdioServerTransport())
