import { expect, type Page, test } from '@playwright/test'
import { QUIRE_EXTENSION_ID } from '../contract/extension.ts'
import { connectExtension, tabIdOf, withExtension } from './support/extension.ts'
import { startPortals } from './support/portals.ts'
import { docsShot } from './support/screens.ts'
import { freshAccount } from './support/session.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * Issue 42, the whole journey in the built extension: connect, read a React portal page, draft
 * it from Quire, fill all High (a field the person typed in is left alone), replace that field
 * after seeing both, edit an answer in Quire, read again and fill the change; the page's own
 * React state holds each value, and the questionnaire is ordinary work in Quire afterwards.
 */

/** The fixture page's own state (React's), as its script reports it. */
type Reporting = { portalState: () => Record<string, unknown> }
const stateOf = (page: Page) => page.evaluate(() => (window as unknown as Reporting).portalState())

const LIBRARY = [
  {
    question: 'Is customer data encrypted at rest?',
    answer: 'Yes. Customer data is encrypted at rest with AES-256 in every region.',
  },
  {
    question: 'Describe how customer data is protected in transit between your systems and ours.',
    answer: 'All traffic between our systems and yours is encrypted with TLS 1.2 or higher.',
  },
  {
    question: 'Do you carry cyber liability insurance?',
    answer: 'Yes. We hold a cyber liability policy with five million dollars of cover.',
  },
]

test('the extension reads a portal page, drafts it from Quire and fills what is confirmed', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000)
  const account = await freshAccount(request, 'portal')
  const headers = await signInWithToken(page, request, account)
  for (const item of LIBRARY) {
    const added = await request.post('/api/v1/knowledge-base/qa/', { headers, data: item })
    expect(added.status()).toBe(201)
  }
  const portals = await startPortals()
  try {
    await withExtension(async (context) => {
      const worker = await connectExtension(context, account)
      const portal = await context.newPage()
      await portal.goto(portals.url('react.html'))
      await expect(portal.getByRole('heading', { name: 'Contoso Vendor Assurance' })).toBeVisible()
      // the person has started on one answer already
      const transit = portal.getByLabel(
        'Describe how customer data is protected in transit between your systems and ours.',
      )
      await transit.fill('We use TLS.')

      const tabId = await tabIdOf(worker, portal.url())
      const panel = await context.newPage()
      await panel.setViewportSize({ width: 400, height: 900 })
      await panel.goto(`chrome-extension://${QUIRE_EXTENSION_ID}/panel.html?tab=${tabId}`)
      await panel.getByRole('button', { name: 'Read this page' }).click()
      await expect(panel.getByText(/questions on this page/)).toBeVisible({ timeout: 20_000 })
      const row = (question: string) => panel.getByRole('listitem', { name: question })
      await expect(row('Is customer data encrypted at rest?')).toContainText('High')
      await expect(row('Do you carry cyber liability insurance?')).toContainText('High')
      await expect(row('Name of the person completing this assessment')).toContainText('No answer')
      await docsShot(panel, 'extension-portal-review')

      // Fill all High: the two choices and the transit answer; the transit field holds the
      // person's words, so it is left as it is
      await panel.getByRole('button', { name: /Fill all High/ }).click()
      const status = panel.getByRole('region', { name: 'Fill this page' }).getByRole('status')
      await expect(status).toContainText('Filled 2 answers')
      await expect(status).toContainText('left as it was')
      await expect
        .poll(() => stateOf(portal))
        .toMatchObject({ encryption_at_rest: 'Yes', insurance: 'Yes', transit: 'We use TLS.' })
      await expect(portal.locator('[data-quire-filled]')).not.toHaveCount(0)

      // replacing it takes its own confirmation, which shows both
      const transitRow = row(
        'Describe how customer data is protected in transit between your systems and ours.',
      )
      await transitRow.getByRole('button', { name: 'Replace…' }).click()
      const confirm = panel.getByRole('alertdialog')
      await expect(confirm).toContainText('We use TLS.')
      await expect(confirm).toContainText('TLS 1.2 or higher')
      await confirm.getByRole('button', { name: 'Replace it' }).click()
      await expect
        .poll(() => stateOf(portal).then((state) => state.transit))
        .toBe('All traffic between our systems and yours is encrypted with TLS 1.2 or higher.')

      // the questionnaire is ordinary work in Quire: listed with its address, editable
      await page.goto('/questionnaires')
      await expect(page.getByRole('link', { name: /^Portal: http:\/\/127\.0\.0\.1/ })).toBeVisible()
      await docsShot(page, 'questionnaires-portal')
      const link = page.getByRole('link', { name: 'Contoso Vendor Assurance' }).first()
      const listed = await request.get('/api/v1/filler/questionnaires/?search=Contoso', { headers })
      const questionnaire = ((await listed.json()) as { results: { id: number }[] }).results[0]
      expect(questionnaire).toBeDefined()
      await link.click()
      await expect(page.getByText('by Quire’s browser extension')).toBeVisible()
      // the license notice shows once a browser session (spec section 2): closed for the picture
      const notice = page.getByRole('button', { name: 'OK' })
      await notice.waitFor({ timeout: 5_000 }).then(
        () => notice.click(),
        () => undefined,
      )
      await docsShot(page, 'workspace-portal')
      const answers = (await (
        await request.get(`/api/v1/filler/questionnaires/${questionnaire?.id}/answers/`, {
          headers,
        })
      ).json()) as { questions: { text: string; answer: { id: number } }[] }
      const transitAnswer = answers.questions.find((q) => q.text.startsWith('Describe how'))
      const edited = await request.post(
        `/api/v1/filler/questionnaires/answers/${transitAnswer?.answer.id}/edit/`,
        {
          headers,
          data: { text: 'Traffic is encrypted with TLS 1.3; internal services use mutual TLS.' },
        },
      )
      expect(edited.status()).toBe(200)

      // read again: the change made in Quire shows, and filling it asks before replacing
      await panel.getByRole('button', { name: 'Read this page again' }).click()
      await expect(transitRow).toContainText('Changed in Quire', { timeout: 20_000 })
      await transitRow.getByRole('button', { name: 'Fill', exact: true }).click()
      await expect(confirm).toContainText('mutual TLS')
      await confirm.getByRole('button', { name: 'Replace it' }).click()
      await expect
        .poll(() => stateOf(portal).then((state) => state.transit))
        .toBe('Traffic is encrypted with TLS 1.3; internal services use mutual TLS.')

      // the history records what was filled
      const filledLines = async () => {
        const history = (await (
          await request.get(`/api/v1/filler/questionnaires/${questionnaire?.id}/operations/`, {
            headers,
          })
        ).json()) as { summary: string }[] | { operations: { summary: string }[] }
        return (Array.isArray(history) ? history : history.operations)
          .map((op) => op.summary)
          .filter((summary) => summary.startsWith('Filled'))
      }
      await expect
        .poll(filledLines)
        .toEqual([
          'Filled 1 answer into the portal page (1 replacing what the page held)',
          'Filled 1 answer into the portal page (1 replacing what the page held)',
          'Filled 2 answers into the portal page',
        ])

      // closing the panel takes the marks off the page
      await panel.close()
      await expect(portal.locator('[data-quire-filled]')).toHaveCount(0)
    })
  } finally {
    await portals.close()
  }
})
