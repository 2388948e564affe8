import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { isProductFact, OTHER_PRODUCT_CAP } from '../../../server/answering/products.ts'
import { get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, questionnaire, rowsOf, settle, uploadFile } from './helpers.ts'

/**
 * Whose answer is it (issue 38): answering a questionnaire for one product, the library's entries
 * of another product are leads, not this product's word. Judged by the rule: an answer resting on
 * another product's entry is never High and its note names both products; a fact that belongs to
 * one product (where it is hosted, its certifications, its sub-processors) is not carried from
 * another product at all; company-wide entries and the product's own answer as before.
 */

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

const QUESTIONS = [
  'Do you encrypt customer data at rest?',
  'Where is the service hosted and where is customer data stored?',
  'Do you perform background checks on employees?',
  'Do you encrypt data in transit?',
  'Do you hold a SOC 2 Type II report?',
]

async function setUp() {
  const user = await member(ctx)
  const studio = (await post(ctx, paths.products.list, { name: 'Studio' }, user.token)).body
  const catalog = (await post(ctx, paths.products.list, { name: 'Catalog' }, user.token)).body
  const add = async (question: string, answer: string, product: number | null) => {
    const res = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question, answer, product_id: product },
      user.token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  await add(QUESTIONS[0] as string, 'Yes, with AES-256.', studio.id)
  await add(QUESTIONS[1] as string, 'Hosted on AWS in us-east-1, data stored in the US.', studio.id)
  await add(QUESTIONS[2] as string, 'Yes, for every employee before they start.', null)
  await add(QUESTIONS[3] as string, 'Yes, TLS 1.2 or later.', catalog.id)
  await add(QUESTIONS[4] as string, 'Yes, renewed every year.', studio.id)
  return { user, studio, catalog }
}

async function answered(token: string, productId: number | null) {
  const { answers } = await answeredWithId(token, productId)
  return answers
}

async function answeredWithId(token: string, productId: number | null) {
  const q = await questionnaire(ctx, token, QUESTIONS)
  if (productId !== null) {
    const set = await post(
      ctx,
      paths.products.assign,
      { product_id: productId, questionnaire_ids: [q.id] },
      token,
    )
    expect(set.status).toBe(200)
  }
  expect((await post(ctx, Q.generate(q.id), {}, token)).status).toBe(202)
  await settle(ctx, token, q.id)
  const rows = await rowsOf(ctx, token, q.id)
  return { id: q.id, answers: new Map(rows.map((row: Body) => [row.text as string, row.answer])) }
}

describe('answers know which product they speak for (issue 38)', () => {
  it('answers for Catalog from Studio’s entries only as a named lead, never High, and not at all for a fact of one product', async () => {
    const { user, catalog } = await setUp()
    const answers = await answered(user.token, catalog.id)
    if (process.env.DEBUG_ANSWERS) console.log(JSON.stringify([...answers], null, 1))
    const atRest = answers.get(QUESTIONS[0] as string)
    expect(atRest?.choice).toBe('Yes')
    expect(atRest?.confidence).toBeLessThanOrEqual(OTHER_PRODUCT_CAP)
    expect(atRest?.note).toBe('From Studio’s answers: check it holds for Catalog before approving.')
    expect(atRest?.flags).toContain('other_product')
    // where Studio is hosted, and Studio's report, are not Catalog's
    for (const fact of [QUESTIONS[1], QUESTIONS[4]]) {
      const answer = answers.get(fact as string)
      expect(answer?.text ?? '', fact).not.toMatch(/us-east-1|renewed every year/)
      expect(answer?.choice ?? null, fact).toBeNull()
      // no answer, Studio's entry cited as the lead a reviewer starts from
      expect(answer?.status, fact).toBe('no_answer')
      expect(answer?.note, fact).toBe(
        'No answer: Studio’s answers hold this, but it is Studio’s alone (cited as a lead): write Catalog’s own.',
      )
      expect(answer?.citations.length, fact).toBeGreaterThan(0)
    }
    // a company-wide entry and Catalog's own answer as before: High
    expect(answers.get(QUESTIONS[2] as string)?.confidence).toBeGreaterThanOrEqual(0.8)
    expect(answers.get(QUESTIONS[3] as string)?.confidence).toBeGreaterThanOrEqual(0.8)
    expect(answers.get(QUESTIONS[3] as string)?.note ?? '').not.toMatch(/’s answers/)
  })

  it('the workspace filters the answers that rest on another product’s word', async () => {
    const { user, catalog } = await setUp()
    const { id } = await answeredWithId(user.token, catalog.id)
    const res = await get(ctx, `${Q.answers(id)}?filter=not_ours`, user.token)
    expect(res.status).toBe(200)
    const texts = (res.body.questions as Body[]).map((row) => row.text)
    expect(texts).toEqual([QUESTIONS[0]])
  })

  it('a questionnaire for no product, or for Studio, answers from Studio’s entries as its own', async () => {
    const { user, studio } = await setUp()
    for (const product of [null, studio.id]) {
      const answers = await answered(user.token, product)
      const atRest = answers.get(QUESTIONS[0] as string)
      expect(atRest?.confidence).toBeGreaterThanOrEqual(0.8)
      expect(atRest?.note ?? '').not.toMatch(/’s answers/)
      expect(answers.get(QUESTIONS[1] as string)?.text).toMatch(/us-east-1/)
    }
  })

  it('answers from the product’s own answer where a sister product answers the same question otherwise: no conflict', async () => {
    const user = await member(ctx)
    const studio = (await post(ctx, paths.products.list, { name: 'Studio' }, user.token)).body
    const catalog = (await post(ctx, paths.products.list, { name: 'Catalog' }, user.token)).body
    const question = 'Does the product use customer data to train AI models?'
    for (const [answer, product] of [
      ['Yes, with the customer’s consent.', studio.id],
      ['No, customer data is never used for training.', catalog.id],
    ] as const) {
      const res = await post(
        ctx,
        paths.knowledgeBase.qa,
        { question, answer, product_id: product },
        user.token,
      )
      expect(res.status).toBe(201)
    }
    const q = await questionnaire(ctx, user.token, [question])
    await post(
      ctx,
      paths.products.assign,
      { product_id: catalog.id, questionnaire_ids: [q.id] },
      user.token,
    )
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    const [row] = await rowsOf(ctx, user.token, q.id)
    expect(row.answer.choice).toBe('No')
    expect(row.answer.confidence).toBeGreaterThanOrEqual(0.8)
    expect(row.answer.note ?? '').not.toMatch(/disagrees|’s answers/)
  })

  it('reads another product’s documents as that product’s: named and never High, and never for a fact of one product', async () => {
    const user = await member(ctx)
    const studio = (await post(ctx, paths.products.list, { name: 'Studio' }, user.token)).body
    const catalog = (await post(ctx, paths.products.list, { name: 'Catalog' }, user.token)).body
    const studioDoc = await uploadFile(
      ctx,
      user.token,
      'Studio security.txt',
      'We encrypt all backups with AES-256. Customer data is stored in AWS us-west-2 in Oregon.',
    )
    await uploadFile(
      ctx,
      user.token,
      'Company policy.txt',
      'All production systems log administrator access to a central log store.',
    )
    await post(
      ctx,
      paths.products.assign,
      { product_id: studio.id, file_ids: [studioDoc] },
      user.token,
    )
    const questions = [
      'Are backups encrypted?',
      'Where is customer data stored?',
      'Do you log administrator access?',
    ]
    const q = await questionnaire(ctx, user.token, questions)
    await post(
      ctx,
      paths.products.assign,
      { product_id: catalog.id, questionnaire_ids: [q.id] },
      user.token,
    )
    expect((await post(ctx, Q.generate(q.id), {}, user.token)).status).toBe(202)
    await settle(ctx, user.token, q.id)
    const rows = new Map(
      (await rowsOf(ctx, user.token, q.id)).map((row: Body) => [row.text, row.answer]),
    )
    const backups = rows.get(questions[0])
    expect(backups?.choice).toBe('Yes')
    expect(backups?.confidence).toBeLessThanOrEqual(OTHER_PRODUCT_CAP)
    expect(backups?.note).toBe(
      'From Studio’s answers: check it holds for Catalog before approving.',
    )
    // where Studio keeps data is not where Catalog does
    expect(rows.get(questions[1])?.text ?? '').not.toMatch(/us-west-2|Oregon/)
    expect(JSON.stringify(rows.get(questions[1])?.citations ?? [])).not.toContain('us-west-2')
    // a company-wide document answers as before
    expect(rows.get(questions[2])?.note ?? '').not.toMatch(/’s answers/)
    expect(rows.get(questions[2])?.choice).toBe('Yes')
  })

  it('tells a fact of one product from a practice by the question’s own words', () => {
    for (const fact of [
      'Please describe your product and its purpose.',
      'In which countries or regions is customer data stored?',
      'What types of data does the application collect?',
      'Is the product SOC 2 Type II certified?',
      'Does the solution conform to WCAG 2.1 AA?',
      'List your sub-processors.',
      'Which LMS integrations does the platform support?',
      'Primary contact name',
      'When was the company founded?',
      // a form's own field labels (HECVAT's General Information), read as the same facts
      'Product Description',
      'Vendor Hosting Regions',
      'Vendor Work Locations',
      'Vendor Contact Title',
      'Vendor Accessibility Contact Email',
      'Web Link to Product Privacy Notice',
      'Describe your organization’s business background and ownership structure.',
      'Have you had an unplanned disruption to this product/service in the last 12 months?',
      'Does your product process protected health information (PHI)?',
    ])
      expect(isProductFact(fact), fact).toBe(true)
    for (const practice of [
      'Do you encrypt data at rest?',
      'Is multi-factor authentication required for administrators?',
      'Do you perform annual penetration tests?',
      'Are backups tested at least yearly?',
      'Do you have an incident response plan?',
      'Do you perform background checks on new staff?',
      'Is the deployment and integration of application code automated where possible?',
      'Are digital certificates adopted for system identities?',
      'Do you support differentiation between email address and user identifier?',
      'Does your staff have access to institutional data (e.g., financial, PHI)?',
    ])
      expect(isProductFact(practice), practice).toBe(false)
  })
})
