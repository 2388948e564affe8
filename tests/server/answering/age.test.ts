import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { AGED_CEILING, CONFLICT_PREFIX, STALE_PREFIX } from '../../../server/answering/age.ts'
import { makeXlsx } from '../../fixtures/documents.ts'
import { DAY, get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, questionnaire, rowsOf, settle, uploadFile } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()

async function qa(token: string, body: Record<string, unknown>) {
  const made = await post(ctx, paths.knowledgeBase.qa, body, token)
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body as Body
}

async function generatedWithId(token: string, questions: string[]) {
  const q = await questionnaire(ctx, token, questions)
  expect((await post(ctx, Q.generate(q.id), {}, token)).status).toBe(202)
  await settle(ctx, token, q.id)
  return { id: q.id as number, rows: await rowsOf(ctx, token, q.id) }
}
const generated = async (token: string, questions: string[]) =>
  (await generatedWithId(token, questions)).rows

describe('answers know how old the library answer behind them is (issue 28)', () => {
  it('an answer from a stale entry is given at the confidence of its age, says so, and shows its freshness, age and owner', async () => {
    const user = await member(ctx)
    const fresh = await qa(user.token, {
      question: 'Do you enforce multi-factor authentication for administrators?',
      answer: 'Yes',
      dropdown_value: 'Yes',
      owner_id: user.user.id,
    })
    const stale = await qa(user.token, {
      question: 'Is customer data encrypted at rest?',
      answer: 'Yes',
      dropdown_value: 'Yes',
      last_reviewed_at: daysAgo(500),
    })
    const { rows, id: firstId } = await generatedWithId(user.token, [
      'Do you enforce multi-factor authentication for administrators?',
      'Is customer data encrypted at rest?',
      'Do you run a public bug bounty programme for researchers?',
    ])
    const [mfa, encrypted, bounty] = rows.map((row: Body) => row.answer)

    expect(mfa).toMatchObject({
      choice: 'Yes',
      band: 'high',
      drawn_from: 'library',
      freshness: 'fresh',
      flags: [],
      library_entry: {
        source: 'qa',
        id: fresh.id,
        age_days: 0,
        owner: { id: String(user.user.id) },
      },
    })
    expect(encrypted).toMatchObject({
      choice: 'Yes',
      drawn_from: 'library',
      freshness: 'stale',
      library_entry: { source: 'qa', id: stale.id, age_days: 500, owner: null },
    })
    // issue 38: the confidence is the calibrated probability for an answer of its age (the shipped
    // table has no 1-2y points: the kind's apply), no longer held under High by a cap; its
    // staleness is said in its note and its freshness, and sends it to its owner's review
    expect(encrypted.confidence).toBeGreaterThan(AGED_CEILING)
    expect(encrypted.note).toContain(STALE_PREFIX)
    expect(encrypted.note).toContain('500 days ago')
    // an answer not drawn from the library has no freshness
    expect(bounty.freshness).toBeNull()
    expect(bounty.flags).toEqual([])

    // once someone confirms the entry, the same answer regenerated is High again
    expect((await post(ctx, paths.knowledgeBase.qaReviewed(stale.id), {}, user.token)).status).toBe(
      200,
    )
    // the list shows the entry's freshness as it is now (the list's cache knows the library moved)
    const reread = await rowsOf(ctx, user.token, firstId)
    expect(reread[1].answer).toMatchObject({ freshness: 'fresh', library_entry: { age_days: 0 } })
    const again = await generated(user.token, ['Is customer data encrypted at rest?'])
    expect(again[0].answer).toMatchObject({ choice: 'Yes', band: 'high', freshness: 'fresh' })
    expect(again[0].answer.note).toBeNull()
  })

  it('a completed questionnaire in the repository is as old as the date it states', async () => {
    const user = await member(ctx)
    const fileId = await uploadFile(
      ctx,
      user.token,
      'Last year HECVAT.xlsx',
      await makeXlsx([
        { question: 'Date', answer: '2024-01-15' },
        { question: 'Do you scan container images for vulnerabilities?', answer: 'Yes' },
      ]),
    )
    const rows = await generated(user.token, ['Do you scan container images for vulnerabilities?'])
    const answer = rows[0].answer
    expect(answer).toMatchObject({
      choice: 'Yes',
      drawn_from: 'library',
      freshness: 'stale',
      library_entry: { source: 'file', id: fileId, reviewed_at: '2024-01-15T00:00:00.000Z' },
    })
    // its staleness is said (issue 38: not a cap on its confidence)
    expect(answer.note).toContain(STALE_PREFIX)
    expect(answer.note).toContain('last reviewed 2024-01-15')
  })

  it('where the library disagrees with itself, the newest answer is used, never High, flagged as a conflict', async () => {
    const user = await member(ctx)
    await qa(user.token, {
      question: 'Do you allow customers to perform their own penetration tests?',
      answer: 'No',
      dropdown_value: 'No',
      last_reviewed_at: daysAgo(200),
    })
    const newer = await qa(user.token, {
      question: 'Do you allow customers to perform their own penetration tests?',
      answer: 'Yes, with two weeks’ notice.',
      dropdown_value: 'Yes',
      last_reviewed_at: daysAgo(10),
    })
    const rows = await generated(user.token, [
      'Do you allow customers to perform their own penetration tests?',
    ])
    const answer = rows[0].answer
    expect(answer).toMatchObject({
      choice: 'Yes',
      status: 'generated',
      flags: ['conflict'],
      freshness: 'fresh',
      library_entry: { id: newer.id },
    })
    expect(answer.band).not.toBe('high')
    expect(answer.note).toContain(CONFLICT_PREFIX)
    // the older answer stays a candidate for the reviewer
    expect(rows[0].candidates.map((candidate: Body) => candidate.choice)).toContain('No')
    // saving the approved answer to the library is a review of the entry, today
    expect((await post(ctx, Q.answer.approve(answer.id), {}, user.token)).status).toBe(200)
    expect((await post(ctx, Q.answer.saveToLibrary(answer.id), {}, user.token)).status).toBe(200)
    const items = (await get(ctx, paths.knowledgeBase.qa, user.token)).body.results as Body[]
    const saved = items.filter((item) => Date.now() - Date.parse(item.last_reviewed_at) < 60_000)
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ freshness: 'fresh', dropdown_value: 'Yes' })
  })
})
