import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { API_KEY_TEXTS } from '../../../contract/platform.ts'
import { questionnaire, uploadFile } from '../answering/helpers.ts'
import { insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * The MCP server (issue 41): an MCP client of the official SDK, over streamable HTTP with an API
 * key, lists the tools and calls each against a seeded organisation; a key of another
 * organisation sees nothing of it; no key, no server.
 */
const ctx = withTestApp({ jobs: true })

async function admin(app: TestApp) {
  const fixture = await insertUser(app.database, { role: 'admin' })
  return { ...fixture, token: (await signIn(app, fixture.email)).access }
}
async function keyOf(app: TestApp, token: string, scopes: string[]) {
  const res = await post(app, paths.platform.apiKeys, { name: 'Assistant', scopes }, token)
  expect(res.status).toBe(201)
  return res.body.key as string
}
async function connect(app: TestApp, key: string) {
  const client = new Client({ name: 'quire-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL('http://quire.test/mcp'), {
    fetch: async (url, init) => app.app.request(String(url), init),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  })
  await client.connect(transport)
  return client
}
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n')

describe('the MCP server (issue 41)', () => {
  it('lists its tools and answers each from the key’s own organisation, with sources', async () => {
    const owner = await admin(ctx)
    await post(
      ctx,
      paths.knowledgeBase.qa,
      {
        question: 'Do you encrypt customer data at rest?',
        answer: 'Yes. Customer data is encrypted at rest with AES-256.',
      },
      owner.token,
    )
    await uploadFile(
      ctx,
      owner.token,
      'Backup policy.txt',
      'Backups are encrypted and kept for 35 days.',
    )
    const made = await questionnaire(ctx, owner.token, ['Do you encrypt customer data at rest?'])
    const key = await keyOf(ctx, owner.token, ['read', 'write'])
    const client = await connect(ctx, key)
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name).sort()
      expect(tools).toEqual([
        'answer_question',
        'get_questionnaire_answers',
        'list_questionnaires',
        'search_knowledge',
        'upload_questionnaire',
      ])

      const answer = await client.callTool({
        name: 'answer_question',
        arguments: { question: 'Is customer data encrypted at rest?' },
      })
      expect(answer.isError).toBeFalsy()
      expect(textOf(answer)).toMatch(/^Yes/)
      expect(textOf(answer)).toContain('Sources:')
      expect(answer.structuredContent).toMatchObject({ answered: true, band: expect.any(String) })

      const unknown = await client.callTool({
        name: 'answer_question',
        arguments: { question: 'Do you hold a FedRAMP High authorisation?' },
      })
      expect(unknown.structuredContent).toMatchObject({ answered: false })

      const search = await client.callTool({
        name: 'search_knowledge',
        arguments: { query: 'backups encrypted' },
      })
      expect(textOf(search)).toContain('Backup policy.txt')

      const list = await client.callTool({ name: 'list_questionnaires', arguments: {} })
      expect(textOf(list)).toContain(`#${made.id} ${made.name}`)

      const answers = await client.callTool({
        name: 'get_questionnaire_answers',
        arguments: { questionnaire_id: made.id },
      })
      expect(textOf(answers)).toContain('Do you encrypt customer data at rest?')

      const upload = await client.callTool({
        name: 'upload_questionnaire',
        arguments: {
          filename: 'Second review.csv',
          content_base64: Buffer.from('Question,Answer\nDo you run background checks?,\n').toString(
            'base64',
          ),
        },
      })
      expect(upload.isError, textOf(upload)).toBeFalsy()
      const again = await client.callTool({ name: 'list_questionnaires', arguments: {} })
      expect(textOf(again)).toContain('Second review.csv')

      const resources = await client.listResources()
      expect(resources.resources.map((r) => r.name)).toContain(
        'Do you encrypt customer data at rest?',
      )
      const read = await client.readResource({ uri: resources.resources[0]?.uri ?? '' })
      expect(JSON.stringify(read.contents)).toContain('AES-256')
    } finally {
      await client.close()
    }
  })

  it('bounds every tool by the key: another organisation sees nothing, a read key uploads nothing', async () => {
    const owner = await admin(ctx)
    await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you run penetration tests?', answer: 'Yes, yearly by NCC Group.' },
      owner.token,
    )
    const made = await questionnaire(ctx, owner.token, ['Do you run penetration tests?'])
    const stranger = await admin(ctx)
    const client = await connect(ctx, await keyOf(ctx, stranger.token, ['read']))
    try {
      const answer = await client.callTool({
        name: 'answer_question',
        arguments: { question: 'Do you run penetration tests?' },
      })
      expect(answer.structuredContent).toMatchObject({ answered: false })
      expect(textOf(answer)).not.toContain('NCC')
      const search = await client.callTool({
        name: 'search_knowledge',
        arguments: { query: 'penetration tests' },
      })
      expect(textOf(search)).not.toContain('NCC')
      const list = await client.callTool({ name: 'list_questionnaires', arguments: {} })
      expect(textOf(list)).not.toContain(`#${made.id} `)
      const theirs = await client.callTool({
        name: 'get_questionnaire_answers',
        arguments: { questionnaire_id: made.id },
      })
      expect(theirs.isError).toBe(true)
      expect(textOf(theirs)).toContain('404')
      const upload = await client.callTool({
        name: 'upload_questionnaire',
        arguments: {
          filename: 'x.csv',
          content_base64: Buffer.from('Question\nx?\n').toString('base64'),
        },
      })
      expect(upload.isError).toBe(true)
      expect(textOf(upload)).toContain('403')
      expect(JSON.stringify(await client.listResources())).not.toContain('penetration')
    } finally {
      await client.close()
    }
  })

  it('takes an API key only: no key, a person’s session or a revoked key is refused', async () => {
    const owner = await admin(ctx)
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    }
    const send = (authorization?: string) =>
      ctx.app.request('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      })
    const none = await send()
    expect(none.status).toBe(401)
    expect(((await none.json()) as { error: { message: string } }).error.message).toBe(
      API_KEY_TEXTS.mcpKey,
    )
    expect((await send(`Bearer ${owner.token}`)).status).toBe(401)
    const key = await keyOf(ctx, owner.token, ['read'])
    expect((await send(`Bearer ${key}`)).status).toBe(200)
    const id = (
      await ctx.database.pool.query<{ id: string }>('select id from api_keys where org_id = $1', [
        owner.orgId,
      ])
    ).rows[0]?.id
    await post(ctx, paths.platform.apiKeyRevoke(Number(id)), {}, owner.token)
    expect((await send(`Bearer ${key}`)).status).toBe(401)
    expect((await ctx.app.request('/mcp', { method: 'GET' })).status).toBe(405)
  })
})
