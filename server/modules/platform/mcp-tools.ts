import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { errorText } from '../../../contract/errors.ts'
import { paths } from '../../../contract/paths.ts'

/**
 * Quire's MCP server (issue 41): tools and resources over the organisation's own API, called
 * with the client's API key, so that a key's scopes and organisation bound what each tool sees
 * exactly as they bound the API. The same tools serve the streamable HTTP endpoint (/mcp) and
 * the stdio entry (`npm run mcp`), which calls a Quire server over HTTP.
 */

/** One call of the API (path under /api/v1) with the client's key. */
export type ApiCaller = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>

/**
 * An ApiCaller with the client's key, over a fetch of API paths (the app's own, or a Quire server
 * over HTTP): a form goes as it is and anything else as JSON; a JSON answer is parsed, a text one
 * stays text.
 */
export function keyCaller(
  key: string,
  send: (path: string, init: RequestInit) => Promise<Response>,
): ApiCaller {
  return async (method, path, body) => {
    const form = body instanceof FormData ? body : undefined
    const json = form === undefined && body !== undefined ? JSON.stringify(body) : undefined
    const res = await send(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(json !== undefined && { 'content-type': 'application/json' }),
      },
      body: form ?? json,
    })
    const text = await res.text()
    try {
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    } catch {
      return { status: res.status, body: text }
    }
  }
}

export interface McpOptions {
  /** Whether `upload_questionnaire` may read a file path (stdio: the user's own machine). */
  readPath?: (path: string) => Promise<{ name: string; bytes: Uint8Array }>
}

type ToolAnswer = {
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

const failed = (status: number, body: unknown): ToolAnswer => ({
  content: [
    {
      type: 'text',
      text: `Quire refused the call (${status}): ${errorText(body, 'no reason given')}`,
    },
  ],
  isError: true,
})

const text = (value: string, structured?: Record<string, unknown>): ToolAnswer => ({
  content: [{ type: 'text', text: value }],
  ...(structured ? { structuredContent: structured } : {}),
})

interface Citation {
  title: string
  snippet: string
  source: string
  id: number | null
}
const sources = (citations: Citation[]) =>
  citations.length
    ? `\n\nSources:\n${citations.map((c, i) => `[${i + 1}] ${c.title}: “${c.snippet}”`).join('\n')}`
    : ''

export function createMcpServer(call: ApiCaller, options: McpOptions = {}) {
  const server = new McpServer(
    { name: 'quire', version: '1.0.0' },
    {
      instructions:
        'Quire keeps an organisation’s approved security answers and documents. Use answer_question for a security or compliance question (its answer cites its sources and says how confident it is; it never invents), search_knowledge to find passages, and the questionnaire tools to read or start questionnaires.',
    },
  )

  server.registerTool(
    'search_knowledge',
    {
      title: 'Search the knowledge',
      description:
        'Search the organisation’s documents, approved Q&A answers and data items. Returns the passages with where they come from.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('Words to search for'),
        limit: z.number().int().min(1).max(50).optional().describe('How many results (10)'),
      },
    },
    async ({ query, limit }) => {
      const q = new URLSearchParams({ q: query, limit: String(limit ?? 10) })
      const res = await call('GET', `${paths.knowledgeBase.search}?${q}`)
      if (res.status !== 200) return failed(res.status, res.body)
      const results = (
        res.body as {
          results: {
            kind: string
            text: string
            source: { name: string }
            file_id: number | null
            item_id: number | null
            score: number
          }[]
        }
      ).results
      if (!results.length)
        return text(`Nothing in the knowledge matches “${query}”.`, { results: [] })
      return text(
        results
          .map(
            (hit, i) =>
              `[${i + 1}] ${hit.source.name} (${hit.kind}${hit.file_id ? `, file ${hit.file_id}` : ''}${hit.item_id ? `, item ${hit.item_id}` : ''}):\n${hit.text}`,
          )
          .join('\n\n'),
        { results },
      )
    },
  )

  server.registerTool(
    'answer_question',
    {
      title: 'Answer a question',
      description:
        'Answer one security or compliance question from the organisation’s approved knowledge, by the same engine and rules as its questionnaires: the answer, its calibrated confidence (high, medium, low) and the sources it cites; or no answer and why.',
      inputSchema: { question: z.string().min(3).max(2000).describe('The question') },
    },
    async ({ question }) => {
      const res = await call('POST', paths.platform.answer, { question })
      if (res.status !== 200) return failed(res.status, res.body)
      const answer = res.body as {
        answered: boolean
        answer: string
        choice: string | null
        confidence: number | null
        band: string | null
        citations: Citation[]
        note: string | null
      }
      const body = answer.answered
        ? `${answer.choice && answer.answer !== answer.choice ? `${answer.choice}. ` : ''}${answer.answer}\n\nConfidence: ${answer.band} (${answer.confidence})${answer.note ? `\nNote: ${answer.note}` : ''}${sources(answer.citations)}`
        : `No answer: ${answer.note}${sources(answer.citations)}`
      return text(body, answer as unknown as Record<string, unknown>)
    },
  )

  server.registerTool(
    'list_questionnaires',
    {
      title: 'List questionnaires',
      description:
        'The organisation’s questionnaires, newest first, with their status and progress.',
      inputSchema: {
        search: z.string().max(200).optional().describe('Words of the name'),
        page: z.number().int().min(1).optional(),
      },
    },
    async ({ search, page }) => {
      const q = new URLSearchParams({ page: String(page ?? 1), page_size: '50' })
      if (search) q.set('search', search)
      const res = await call('GET', `${paths.questionnaires.list}?${q}`)
      if (res.status !== 200) return failed(res.status, res.body)
      const list = res.body as { count: number; results: Record<string, unknown>[] }
      return text(
        list.results.length
          ? `${list.count} questionnaires:\n${list.results.map((item) => `- #${item.id} ${item.name} (${item.status})`).join('\n')}`
          : 'No questionnaire yet.',
        list as unknown as Record<string, unknown>,
      )
    },
  )

  server.registerTool(
    'get_questionnaire_answers',
    {
      title: 'Read a questionnaire’s answers',
      description:
        'Every question of a questionnaire with its answer, review status, confidence and sources.',
      inputSchema: { questionnaire_id: z.number().int().positive() },
    },
    async ({ questionnaire_id }) => {
      const res = await call('GET', paths.questionnaires.answers(questionnaire_id))
      if (res.status !== 200) return failed(res.status, res.body)
      const answers = res.body as {
        questionnaire: { name: string }
        questions: {
          ref: string | null
          text: string
          answer: { text: string; choice: string | null; status: string; band: string | null }
        }[]
      }
      const lines = answers.questions.map((row) => {
        const answer = row.answer
        const words = [answer.choice, answer.text].filter(Boolean).join(': ') || '(no answer)'
        return `${row.ref ? `${row.ref} ` : ''}${row.text}\n→ ${words} [${answer.status}${answer.band ? `, ${answer.band}` : ''}]`
      })
      return text(
        `${answers.questionnaire.name}: ${answers.questions.length} questions\n\n${lines.join('\n\n')}`,
        answers as unknown as Record<string, unknown>,
      )
    },
  )

  server.registerTool(
    'upload_questionnaire',
    {
      title: 'Upload a questionnaire',
      description:
        'Start a questionnaire from a spreadsheet, Word, PDF or CSV file: give its name and its content in base64' +
        (options.readPath ? ', or the path of a file on this machine.' : '.'),
      inputSchema: {
        filename: z.string().min(1).max(255).optional(),
        content_base64: z.string().optional(),
        ...(options.readPath ? { path: z.string().optional() } : {}),
      },
    },
    async (input) => {
      let file: { name: string; bytes: Uint8Array } | null = null
      const path = (input as { path?: string }).path
      if (path && options.readPath) file = await options.readPath(path)
      else if (input.content_base64 && input.filename)
        file = { name: input.filename, bytes: Buffer.from(input.content_base64, 'base64') }
      if (!file)
        return {
          content: [{ type: 'text', text: 'Give the file: its filename and content_base64.' }],
          isError: true,
        }
      const form = new FormData()
      form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name)
      const res = await call('POST', paths.questionnaires.upload, form)
      if (res.status >= 300) return failed(res.status, res.body)
      const made = res.body as Record<string, unknown>
      return text(`Uploaded ${file.name}: Quire is reading it.`, made)
    },
  )

  server.registerResource(
    'qa-item',
    new ResourceTemplate('quire://qa/{id}', {
      list: async () => {
        const res = await call('GET', `${paths.knowledgeBase.qa}?page_size=200`)
        const items =
          res.status === 200
            ? ((res.body as { results: { id: number; question: string }[] }).results ?? [])
            : []
        return {
          resources: items.map((item) => ({
            uri: `quire://qa/${item.id}`,
            name: item.question.slice(0, 120),
            mimeType: 'text/plain',
          })),
        }
      },
    }),
    { title: 'Approved answers', description: 'The library’s approved question and answer pairs.' },
    async (uri, variables) => {
      const id = Number(variables.id)
      const res = await call('GET', paths.knowledgeBase.qaItem(id))
      if (res.status !== 200 || !Number.isInteger(id))
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Not found.' }] }
      const item = res.body as { question: string; answer: string; dropdown_value: string | null }
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/plain',
            text: `Q: ${item.question}\nA: ${item.dropdown_value ? `${item.dropdown_value}. ` : ''}${item.answer}`,
          },
        ],
      }
    },
  )
  return server
}
