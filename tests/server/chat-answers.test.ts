import { describe, expect, it } from 'vitest'
import { CHAT_TEXTS } from '../../contract/chat.ts'
import { paths } from '../../contract/paths.ts'
import { makePdf } from '../fixtures/documents.ts'
import { type Body, member, uploadFile } from './answering/helpers.ts'
import { get, post } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * The shape of a chat answer (issue 30): the direct answer first, then the sentences that support
 * it from every kind of source (documents first where they state it, then the organisation's own
 * answers), each with its number; what of the question the sources do not say, in words; and no
 * note about language models in the answer (the quota says whether one is configured).
 */
const ctx = withTestApp({ jobs: true })
const C = paths.chat

async function ask(token: string, content: string) {
  const chat = await post(ctx, C.createUnnamed, {}, token)
  const reply = await post(ctx, C.messages(chat.body.id), { content }, token)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.answer as { content: string; citations: Body[] }
}

const completed = (rows: string[][]) =>
  ['ID,Question,Answer', ...rows.map((row) => row.map((cell) => `"${cell}"`).join(','))].join('\n')

const pdf = async (token: string, name: string, heading: string, ...sentences: string[]) =>
  uploadFile(ctx, token, name, await makePdf([[heading, ...sentences]]))

/** The insurance summary: the coverage, and whatever else `sentences` add. */
const insuranceSummary = (token: string, ...sentences: string[]) =>
  pdf(
    token,
    'Insurance summary.pdf',
    'Insurance',
    'We maintain cyber insurance coverage for data breaches and business interruption.',
    ...sentences,
  )

describe('chat answers', () => {
  it('opens with Yes, then the documents’ sentences, then the spreadsheet row; no model note', async () => {
    const user = await member(ctx)
    await uploadFile(
      ctx,
      user.token,
      'Vendor answers 2024.csv',
      completed([['A-1', 'Do we encrypt backups?', 'Yes']]),
    )
    await pdf(
      user.token,
      'Backup policy.pdf',
      'Backups',
      'All backups are encrypted with AES-256 before they leave the primary region.',
    )
    await pdf(
      user.token,
      'Security overview.pdf',
      'Data protection',
      'Database backup snapshots are encrypted at rest with AES-256 keys held in a managed KMS.',
    )
    await pdf(
      user.token,
      'Disaster recovery plan.pdf',
      'Recovery',
      'Our nightly backups are encrypted with AES-256 and are copied to a second region.',
    )
    const answer = await ask(user.token, 'Do we encrypt backups?')
    expect(answer.content).toMatch(/^Yes\.\n\n/)
    const titles = answer.citations.map((citation) => citation.title)
    // every document that states it, each sentence with its number, before the row
    expect(titles.slice(0, 3).sort()).toEqual([
      'Backup policy.pdf',
      'Disaster recovery plan.pdf',
      'Security overview.pdf',
    ])
    expect(titles[3]).toBe('Vendor answers 2024.csv')
    for (const [index, citation] of answer.citations.slice(0, 3).entries()) {
      expect(citation.kind).toBe('document')
      expect(answer.content).toContain(`${citation.snippet} [${index + 1}]`)
    }
    expect(answer.content).toContain('Your answer to “Do we encrypt backups?”: Yes. [4]')
    // the row carries its passage: the knowledge base opens it
    expect(answer.citations[3]).toMatchObject({ source: 'file', kind: 'library' })
    const opened = await get(
      ctx,
      `${paths.knowledgeBase.answered}?id=${answer.citations[3]?.entry}`,
      user.token,
    )
    expect(opened.body.results).toEqual([
      expect.objectContaining({
        question: 'Do we encrypt backups?',
        file_name: 'Vendor answers 2024.csv',
      }),
    ])
    expect(answer.content).not.toContain(CHAT_TEXTS.extractiveNote)
    expect(answer.content).not.toMatch(/language model/i)
    const quota = await get(ctx, C.quota, user.token)
    expect(quota.body.language_model).toBe(false)
  })

  it('says which parts of a question the sources do not state', async () => {
    const user = await member(ctx)
    await insuranceSummary(user.token)
    const answer = await ask(
      user.token,
      'Who is our cyber insurance carrier and what is the coverage limit?',
    )
    expect(answer.content).toMatch(
      /^We maintain cyber insurance coverage for data breaches and business interruption\. \[1\]/,
    )
    expect(answer.content).toMatch(
      /\n\nThe sources do not state the cyber insurance carrier or the coverage limit\.$/,
    )
    expect(answer.content).not.toMatch(/\bYes\b/)
  })

  it('names only the parts left unsaid when a document states the others', async () => {
    const user = await member(ctx)
    await insuranceSummary(
      user.token,
      'Our cyber insurance policy has a coverage limit of $5,000,000 per claim.',
    )
    const answer = await ask(
      user.token,
      'What is our cyber insurance coverage limit, and who is the carrier?',
    )
    expect(answer.content).toContain('$5,000,000')
    expect(answer.content).toMatch(/The sources do not state the carrier\.$/)
  })

  it('says what it looked for, and nothing more, when no source answers', async () => {
    const user = await member(ctx)
    const answer = await ask(user.token, 'Who is our cyber insurance carrier?')
    expect(answer.content).toMatch(/^I looked for “Who is our cyber insurance carrier\?”/)
    expect(answer.content).not.toContain('The sources do not state')
  })
})

describe('figures in chat answers (issue 39)', () => {
  it('states the figure a document gives when asked for it', async () => {
    const user = await member(ctx)
    await pdf(
      user.token,
      'Encryption standard.pdf',
      'Data at rest',
      'Customer data is encrypted at rest using AES-256 with keys rotated every year.',
      'We take the protection of customer information very seriously.',
    )
    const answer = await ask(user.token, 'What encryption standard do you use for data at rest?')
    expect(answer.content).toContain('AES-256')
  })

  it('says plainly when no figure is documented, rather than offering a definition as the answer', async () => {
    const user = await member(ctx)
    await pdf(
      user.token,
      'Business continuity.pdf',
      'Recovery',
      'The recovery time objective (RTO) is the maximum acceptable time to restore a service after an outage.',
      'We are committed to world-class resilience and availability for every customer.',
    )
    const answer = await ask(user.token, 'What is your RTO?')
    expect(answer.content).toMatch(/^No figure for the RTO is documented/)
    expect(answer.content).not.toMatch(/^The recovery time objective/)
  })
})
