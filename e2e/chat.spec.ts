import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { extractText } from 'unpdf'
import { makePdf } from '../tests/fixtures/documents.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { sql } from './support/db.ts'

/**
 * The chat assistant: ask, get an answer with its sources, stop a long answer, rename the
 * conversation, export it as PDF and read it, and reach the month's quota.
 */

const LONG = Array.from(
  { length: 120 },
  (_, i) => `Control ${i + 1} of the vulnerability programme is reviewed by the security officer.`,
).join(' ')

test('ask with sources, stop, rename, export as PDF, reach the quota', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const account = newAccount('chat')
  await registerAndConfirm(page, account)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  const headers = { authorization: `Bearer ${access}` }
  for (const data of [
    {
      question: 'Do you encrypt backups?',
      answer: 'Yes, backups are encrypted with AES-256 in a second region.',
    },
    { question: 'How do you manage vulnerabilities?', answer: LONG },
  ])
    expect((await request.post('/api/v1/knowledge-base/qa/', { headers, data })).status()).toBe(201)

  await page.goto('/chat')
  await page.getByRole('button', { name: 'New conversation' }).click()
  const conversation = page.getByRole('region', { name: 'Conversation' })
  await conversation.getByRole('textbox', { name: 'Your question' }).fill('Do you encrypt backups?')
  await conversation.getByRole('button', { name: 'Ask' }).click()
  const answer = conversation.getByRole('article', { name: 'Answer' }).last()
  await expect(answer).toContainText('AES-256')
  await expect(answer.getByRole('list', { name: 'Sources' })).toContainText(
    'Do you encrypt backups?',
  )
  // the conversation is named after its first question
  await expect(conversation.getByRole('heading', { name: 'Do you encrypt backups?' })).toBeVisible()

  // a long answer, stopped while it streams
  await conversation
    .getByRole('textbox', { name: 'Your question' })
    .fill('How do you manage vulnerabilities?')
  await conversation.getByRole('button', { name: 'Ask' }).click()
  await expect(conversation.getByText('Control 1 of the vulnerability')).toBeVisible()
  // the button moves while the answer grows: a click that waits for it to stand still can come
  // after the end of the answer, so the event is sent to it where it is
  await conversation.getByRole('button', { name: 'Stop' }).dispatchEvent('click')
  await expect(conversation.getByText('Quire · stopped')).toBeVisible()

  // rename
  page.once('dialog', (dialog) => void dialog.accept('Backups and vulnerabilities'))
  await conversation.getByRole('button', { name: 'Rename conversation' }).click()
  await expect(
    conversation.getByRole('heading', { name: 'Backups and vulnerabilities' }),
  ).toBeVisible()

  // export as PDF and read it
  const download = page.waitForEvent('download')
  await conversation.getByRole('button', { name: 'PDF' }).click()
  const file = await (await download).path()
  const { text } = await extractText(new Uint8Array(await readFile(file)), { mergePages: true })
  expect(text).toContain('Backups and vulnerabilities')
  expect(text).toContain('AES-256')

  // the month's quota: the 100th question is answered, the next is refused and said why (the
  // usage ledger counts the questions, whatever became of their conversations)
  await sql(
    `insert into chat_usage (org_id, user_id)
     select s.org_id, s.user_id from chat_sessions s, generate_series(1, 97) n
      where s.title = 'Backups and vulnerabilities'`,
  )
  await page.reload()
  await expect(conversation.getByText('99 of 100')).toBeVisible()
  await conversation.getByRole('textbox', { name: 'Your question' }).fill('Do you encrypt backups?')
  await conversation.getByRole('button', { name: 'Ask' }).click()
  await expect(conversation.getByText('100 of 100')).toBeVisible()
  await conversation
    .getByRole('textbox', { name: 'Your question' })
    .fill('Where are backups stored?')
  await conversation.getByRole('button', { name: 'Ask' }).click()
  await expect(conversation.getByRole('alert')).toContainText(
    'used its 100 chat questions for this month',
  )
  await expect(conversation.getByRole('textbox', { name: 'Your question' })).toBeDisabled()
})

test('a cited document opens at its page', async ({ page, request, context }) => {
  test.setTimeout(60_000)
  const account = newAccount('chat-source')
  await registerAndConfirm(page, account)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  const upload = await request.post('/api/v1/files/upload/', {
    headers: { authorization: `Bearer ${access}` },
    multipart: {
      files: {
        name: 'Backup policy.pdf',
        mimeType: 'application/pdf',
        buffer: await makePdf([
          ['Backup policy'],
          ['Backups are encrypted with AES-256 every night.'],
        ]),
      },
    },
  })
  expect(upload.status()).toBeLessThan(300)
  await expect
    .poll(async () => {
      const res = await request.get('/api/v1/files/', {
        headers: { authorization: `Bearer ${access}` },
      })
      return ((await res.json()) as { results: { status: string }[] }).results[0]?.status
    })
    .toBe('ready')
  await page.goto('/chat')
  await page.getByRole('button', { name: 'New conversation' }).click()
  const conversation = page.getByRole('region', { name: 'Conversation' })
  await conversation.getByRole('textbox', { name: 'Your question' }).fill('Are backups encrypted?')
  await conversation.getByRole('button', { name: 'Ask' }).click()
  const source = conversation.getByRole('button', { name: /Backup policy\.pdf, page 2/ })
  await expect(source).toBeVisible()
  const opened = context.waitForEvent('page')
  await source.click()
  expect((await opened).url()).toMatch(/^blob:.*#page=2$/)
})
