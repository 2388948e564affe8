import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { API_PREFIX } from '../contract/paths.ts'
import { type ApiCaller, createMcpServer } from '../server/modules/platform/mcp-tools.ts'

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

const call: ApiCaller = async (method, at, body) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` }
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const res = await fetch(`${base}${API_PREFIX}${at}`, { method, headers, body: payload })
  const text = await res.text()
  try {
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  } catch {
    return { status: res.status, body: text }
  }
}

const server = createMcpServer(call, {
  readPath: async (file) => ({
    name: path.basename(file),
    bytes: new Uint8Array(await readFile(path.resolve(file))),
  }),
})
await server.connect(new StdioServerTransport())
