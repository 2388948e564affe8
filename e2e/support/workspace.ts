import { type APIRequestContext, expect, type Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import type { TestAccount } from './accounts.ts'
import { signIn } from './session.ts'

/** Steps the questionnaire journeys share: a token, repository files, questionnaires. */

/** Signs a new admin in on the page, and returns the API headers of the same account. */
export async function signInWithToken(
  page: Page,
  request: APIRequestContext,
  own?: TestAccount,
): Promise<Record<string, string>> {
  const account = await signIn(page, request, own)
  const login = await request.post('/api/v1/admin/login/', {
    data: { email: account.email, password: account.password },
  })
  const { access } = (await login.json()) as { access: string }
  return { authorization: `Bearer ${access}` }
}

/** Uploads a repository file through the API and waits until it is read; its id. */
export async function uploadReady(
  request: APIRequestContext,
  headers: Record<string, string>,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<number> {
  const res = await request.post('/api/v1/files/upload/', { headers, multipart: { files: file } })
  expect(res.status()).toBe(201)
  const id = ((await res.json()) as { files: { id: number }[] }).files[0]?.id as number
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v1/files/${id}/`, { headers })).json()) as {
            status: string
          }
        ).status,
      { timeout: 20_000 },
    )
    .toBe('ready')
  return id
}

/** A one-tab workbook: ID, question, a Yes/No/N/A dropdown for the answer, comments. */
export async function yesNoWorkbook(
  tab: string,
  questions: [ref: string, text: string, answer?: string, comment?: string][],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(tab)
  sheet.addRow(['ID', 'Question', 'Answer', 'Comments'])
  // a question may arrive answered already (issue 39)
  for (const [ref, text, answer = '', comment = ''] of questions) {
    const row = sheet.addRow([ref, text, answer, comment])
    row.getCell(3).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/**
 * Opens a questionnaire's workspace (past the license notice), waits until its questions are
 * read, generates answers and waits until `answered` of them are answered.
 */
export async function openAndGenerate(
  page: Page,
  id: number,
  counts: { questions: number; answered: number },
) {
  await page.goto(`/questionnaire/${id}`)
  await page
    .getByRole('dialog', { name: 'License Limitation' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(page.getByText(`${counts.questions} questions`)).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Generate answers' }).click()
  await expect(page.getByText(/answered \(\d+%\)/)).toContainText(`${counts.answered} answered`, {
    timeout: 20_000,
  })
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Uploads a questionnaire workbook through the API (201); its id, while it is analysed. */
export async function postQuestionnaire(
  request: APIRequestContext,
  headers: Record<string, string>,
  name: string,
  buffer: Buffer,
): Promise<number> {
  const upload = await request.post('/api/v1/filler/questionnaires/upload/', {
    headers,
    multipart: { file: { name, mimeType: XLSX, buffer } },
  })
  expect(upload.status()).toBe(201)
  return ((await upload.json()) as { id: number }).id
}

/** Uploads a one-tab Yes/No questionnaire through the API and waits until it is read; its id. */
export async function uploadQuestionnaire(
  request: APIRequestContext,
  headers: Record<string, string>,
  name: string,
  questions: [string, string][],
): Promise<number> {
  const id = await postQuestionnaire(
    request,
    headers,
    name,
    await yesNoWorkbook('Controls', questions),
  )
  const statusOf = async () =>
    (
      (await (await request.get(`/api/v1/filler/questionnaires/${id}/`, { headers })).json()) as {
        status: string
      }
    ).status
  await expect.poll(statusOf, { timeout: 30_000 }).toBe('ready')
  return id
}

/**
 * Signs a new admin in (as `signInWithToken`) and posts a questionnaire workbook (as
 * `postQuestionnaire`): the API headers and the questionnaire's id, while it is analysed.
 */
export async function signInAndPost(
  page: Page,
  request: APIRequestContext,
  questionnaire: { name: string; workbook: Buffer },
) {
  const headers = await signInWithToken(page, request)
  const id = await postQuestionnaire(request, headers, questionnaire.name, questionnaire.workbook)
  return { headers, id }
}

/**
 * A document's answers (the journeys of issues 27 and 28): signs a new admin in, uploads the
 * document and waits until it is read, posts a one-tab Yes/No questionnaire and generates its
 * answers, every question answered. The ids, the API headers, and `remove`, which deletes the
 * questionnaire and the document once the journey is done with them.
 */
export async function answeredFromDocument(
  page: Page,
  request: APIRequestContext,
  document: { name: string; mimeType: string; buffer: Buffer },
  questionnaire: { name: string; tab: string; questions: [ref: string, text: string][] },
) {
  const { name, tab, questions } = questionnaire
  const headers = await signInWithToken(page, request)
  const fileId = await uploadReady(request, headers, document)
  const id = await postQuestionnaire(request, headers, name, await yesNoWorkbook(tab, questions))
  await openAndGenerate(page, id, { questions: questions.length, answered: questions.length })
  const remove = async () => {
    await request.delete(`/api/v1/filler/questionnaires/${id}/delete/`, { headers })
    await request.post('/api/v1/files/batch-delete/', { headers, data: { file_ids: [fileId] } })
  }
  return { headers, fileId, id, remove }
}
