import ExcelJS from 'exceljs'
import { expect } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { fileOf, get, insertUser, post, postForm, signIn, type TestApp } from '../auth/helpers.ts'

/** Steps the answering tests share: a signed-in member, files, questionnaires, their rows. */

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
export type Body = any
const Q = paths.questionnaires

/** A member of a new organisation, or of `orgId`, with an access token. */
export async function member(ctx: TestApp, orgId?: number) {
  const fixture = await insertUser(ctx.database, { role: 'approver', orgId })
  const session = await signIn(ctx, fixture.email)
  return { ...fixture, token: session.access }
}

/** A one-tab questionnaire (ID, question, Yes/No/N/A dropdown, comments), uploaded and analysed. */
export async function questionnaire(ctx: TestApp, token: string, questions: string[]) {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Security')
  sheet.addRow(['ID', 'Question', 'Answer', 'Comments'])
  questions.forEach((text, index) => {
    const row = sheet.addRow([`SEC-${String(index + 1).padStart(2, '0')}`, text, '', ''])
    row.getCell(3).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] }
  })
  return uploadQuestionnaire(ctx, token, workbook, 'q.xlsx')
}

/** A questionnaire workbook uploaded as `name` and analysed: the questionnaire once settled. */
export async function uploadQuestionnaire(
  ctx: TestApp,
  token: string,
  workbook: ExcelJS.Workbook,
  name: string,
) {
  const data = Buffer.from(await workbook.xlsx.writeBuffer())
  const { status, body } = await postForm(ctx, Q.upload, token, { file: fileOf(name, data) })
  expect(status, JSON.stringify(body)).toBe(201)
  return settle(ctx, token, body.id)
}

/** The questionnaire once it is no longer being analysed or answered. */
export async function settle(ctx: TestApp, token: string, id: number) {
  for (let i = 0; i < 400; i++) {
    const res = await get(ctx, Q.get(id), token)
    if (['ready', 'failed'].includes(res.body.status)) return res.body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('never settled')
}

/** A repository file, uploaded and read; its id. */
export async function uploadFile(ctx: TestApp, token: string, name: string, data: Buffer | string) {
  const form = new FormData()
  form.append('files', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name)
  const res = await ctx.app.request(apiPath(paths.files.upload), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  const id = Number(((await res.json()) as Body).files[0].id)
  for (let i = 0; i < 400; i++) {
    const state = await get(ctx, paths.files.get(id), token)
    if (state.body.status === 'ready') return id
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('file never ready')
}

export const rowsOf = async (ctx: TestApp, token: string, id: number) =>
  (await get(ctx, Q.answers(id), token)).body.questions as Body[]

/** Library Q&A items added through the API, each answered 201. */
export async function addQa(
  ctx: TestApp,
  token: string,
  ...items: { question: string; answer: string; dropdown_value?: string }[]
) {
  for (const item of items) {
    expect((await post(ctx, paths.knowledgeBase.qa, item, token)).status).toBe(201)
  }
}

/** What the fake language model answers: the reply as JSON text, and the tokens it spent. */
export const modelReply = (reply: unknown, tokens: { input: number; output: number }) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(reply) }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
  },
  warnings: [],
})
