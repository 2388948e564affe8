import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { extractText, getDocumentProxy } from 'unpdf'
import { stampText } from '../server/modules/trust/stamp.ts'
import { makePdf } from '../tests/fixtures/documents.ts'
import { linkIn, waitForMail } from './support/mailbox.ts'
import { docsShot } from './support/screens.ts'
import { freshAccount } from './support/session.ts'
import { signInWithToken, uploadReady } from './support/workspace.ts'

/**
 * Issue 40: an admin publishes the trust centre; a visitor reads it without JavaScript, then
 * with it asks for the document under NDA; the admin approves; the emailed link opens a reader
 * session whose PDF is stamped with the reader's email; a revocation ends it; the ask box answers
 * from a public item and refuses what only a private one could answer.
 */

const CANARY = 'canary-7f3e-private-answer'
const visitor = {
  name: 'Vera Visitor',
  email: `vera-${Date.now().toString(36)}@prospect.example`,
  company: 'Prospect Ltd',
}

async function pdfPages(path: string) {
  const pdf = await getDocumentProxy(new Uint8Array(readFileSync(path)))
  const { text } = await extractText(pdf, { mergePages: false })
  return text as string[]
}

/** Presses one of a row's visibility buttons in "What is public" and waits for it to hold. */
async function mark(page: Page, name: string, label: 'Public' | 'Under NDA') {
  const group = page.getByRole('group', { name: `Visibility of ${name}` })
  await group.getByRole('button', { name: label }).click()
  await expect(group.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true')
  await expect(group.getByRole('button', { name: label })).toBeEnabled()
}

test('trust centre: publish, read without and with JavaScript, request under NDA, approve, read the stamp, revoke, ask', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000)
  // an organisation of its own: the page shows what this journey publishes, nothing of others'
  const headers = await signInWithToken(page, request, await freshAccount(request, 'trust'))
  const slug = `acme-${Date.now().toString(36)}`
  await uploadReady(request, headers, {
    name: 'Security overview.pdf',
    mimeType: 'application/pdf',
    buffer: await makePdf([['Security overview', 'Our public security summary.']]),
  })
  await uploadReady(request, headers, {
    name: 'Pen test 2026.pdf',
    mimeType: 'application/pdf',
    buffer: await makePdf(
      [['Penetration test 2026', 'No critical findings remain open.'], ['Appendix']],
      'Pen test',
    ),
  })
  const items = [
    [
      'Do you encrypt customer data at rest?',
      'Yes. Customer data is encrypted at rest with AES-256.',
    ],
    ['Do you require multi-factor authentication for staff?', 'Yes. Every staff account uses MFA.'],
    ['Do you run a bug bounty programme?', `Yes, privately with HackerOne ${CANARY}.`],
  ]
  for (const [question, answer] of items) {
    const res = await request.post('/api/v1/knowledge-base/qa/', {
      headers,
      data: { question, answer },
    })
    expect(res.status(), await res.text()).toBe(201)
  }

  // the admin says what is public, writes the page, previews it and publishes it
  await page.goto('/settings/trust')
  await expect(page.getByRole('heading', { name: 'Trust centre' })).toBeVisible()
  await mark(page, 'Security overview.pdf', 'Public')
  await mark(page, 'Pen test 2026.pdf', 'Under NDA')
  await mark(page, items[0]?.[0] as string, 'Public')
  await mark(page, items[1]?.[0] as string, 'Public')
  const form = page.getByRole('form', { name: 'The trust centre\u2019s page' })
  await form.getByLabel('Page address').fill(slug)
  for (const section of ['Overview', 'Security practices', 'Documents', 'Contact'])
    await form.getByRole('checkbox', { name: section }).check()
  await form
    .getByRole('textbox', { name: 'Overview', exact: true })
    .fill('Acme keeps customer data safe and says how here.')
  await form.getByLabel('Contact address').fill('security@acme.example')
  await form.getByLabel(/The NDA visitors accept/).fill('Do not share these documents.')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await page.getByRole('button', { name: 'Preview' }).click()
  const preview = page.getByRole('region', { name: 'Preview' })
  await expect(preview.getByText(items[0]?.[1] as string)).toBeVisible()
  await expect(preview).not.toContainText(CANARY)
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByTestId('trust-status')).toHaveText('Published')
  await docsShot(page, 'trust-settings')

  // a visitor without JavaScript reads the server's page and downloads the public document
  const plain = await browser.newContext({ javaScriptEnabled: false })
  const reading = await plain.newPage()
  await reading.goto(`/trust/${slug}`)
  await expect(reading.getByRole('heading', { level: 1 })).toContainText('Trust Center')
  await expect(reading.getByText(items[1]?.[1] as string)).toBeVisible()
  await expect(reading.locator('body')).not.toContainText(CANARY)
  await expect(reading.getByRole('link', { name: 'Pen test 2026.pdf' })).toHaveCount(0)
  const [publicDownload] = await Promise.all([
    reading.waitForEvent('download'),
    reading.getByRole('link', { name: 'Security overview.pdf' }).click(),
  ])
  expect(publicDownload.suggestedFilename()).toBe('Security overview.pdf')
  await plain.close()

  // with JavaScript, the same page asks for the document under NDA
  const visiting = await browser.newContext()
  const visit = await visiting.newPage()
  await visit.goto(`/trust/${slug}`)
  await visit.getByRole('button', { name: 'Request access' }).click()
  const ask = visit.getByRole('form', { name: 'Request access' })
  await ask.getByLabel('Name', { exact: true }).fill(visitor.name)
  await ask.getByLabel('Work email').fill(visitor.email)
  await ask.getByLabel('Company', { exact: true }).fill(visitor.company)
  await ask.getByLabel('Reason (optional)').fill('Vendor review before signing.')
  await ask.getByRole('button', { name: 'Send the request' }).click()
  await expect(ask.getByRole('alert')).toHaveText('Accept the NDA to request access.')
  await ask.getByRole('checkbox', { name: /accept the NDA/ }).check()
  await docsShot(visit, 'trust-centre-request')
  await ask.getByRole('button', { name: 'Send the request' }).click()
  await expect(visit.getByRole('status')).toContainText('Thank you: your request was sent.')
  await docsShot(visit, 'trust-centre-page')

  // the ask box: a public item answers; a question only a private item answers is refused
  const box = visit.getByRole('region', { name: 'Ask a question' })
  await box.getByLabel('Your question').fill('Is customer data encrypted at rest?')
  await box.getByRole('button', { name: 'Ask' }).click()
  await expect(box.getByTestId('trust-answer')).toContainText('AES-256')
  await box.getByLabel('Your question').fill('Do you run a bug bounty programme?')
  await box.getByRole('button', { name: 'Ask' }).click()
  await expect(box.getByTestId('trust-answer')).toContainText('Ask us at security@acme.example')
  await expect(box).not.toContainText(CANARY)

  // the admin is told (by email and in the app) and approves
  await page.goto('/settings/trust#trust-requests')
  await page.getByTestId('notification-bell').click()
  await expect(page.getByTestId('notification').filter({ hasText: visitor.name })).toBeVisible()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: `Approve ${visitor.name}` }).click()
  await expect(page.getByText('Access approved: the link is on its way by email.')).toBeVisible()

  // the emailed link opens a reader session on the visitor's click; the PDF carries the stamp
  const approved = await waitForMail(visitor.email, /Your access to/)
  await visit.goto(linkIn(approved, `/trust/${slug}`))
  await visit.getByRole('button', { name: 'Open the documents' }).click()
  await expect(visit.getByText(`Reading as ${visitor.email}`)).toBeVisible()
  expect(new URL(visit.url()).search).toBe('')
  await docsShot(visit, 'trust-centre-reader')
  const [gated] = await Promise.all([
    visit.waitForEvent('download'),
    visit.getByRole('link', { name: 'Pen test 2026.pdf' }).click(),
  ])
  const saved = test.info().outputPath('stamped.pdf')
  await gated.saveAs(saved)
  const pages = await pdfPages(saved)
  expect(pages).toHaveLength(2)
  for (const text of pages) expect(text).toContain(stampText(visitor.email, new Date()))

  // revoked: the session stops at once (the download is refused, the page says so on reload)
  await page.getByRole('button', { name: 'Approved' }).click()
  await page.getByRole('button', { name: `Revoke ${visitor.name}` }).click()
  await expect(page.getByText(/Access revoked/)).toBeVisible()
  const link = await visit.getByRole('link', { name: 'Pen test 2026.pdf' }).getAttribute('href')
  const refused = await visit.request.get(link ?? '')
  expect(refused.status()).toBe(401)
  await visit.reload()
  await expect(visit.getByText(`Reading as ${visitor.email}`)).toHaveCount(0)
  await expect(visit.getByRole('link', { name: 'Pen test 2026.pdf' })).toHaveCount(0)
  await visiting.close()
})
