import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { libraryHealthSchema } from '../../../contract/questionnaires.ts'
import { makeCsv } from '../../fixtures/documents.ts'
import { uploadFile } from '../answering/helpers.ts'
import { DAY, get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * Issue 30: library health tells duplicates from conflicts by what the entries answer. The same
 * question answered in other words ("Acme Learning Ltd", "Instructure") is a conflict, not a
 * duplicate, and the conflict names the newer answer; the same answer twice (or Yes twice in
 * other words) stays a duplicate.
 */

const ctx = withTestApp({ jobs: true })

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()

async function member() {
  const fixture = await insertUser(ctx.database, { role: 'admin' })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

const healthOf = async (token: string) =>
  libraryHealthSchema.parse((await get(ctx, paths.knowledgeBase.health, token)).body)

describe('library health: conflicts and duplicates (issue 30)', () => {
  it('different answers to the same question are a conflict, newest first and marked', async () => {
    const admin = await member()
    const add = (body: Record<string, unknown>) =>
      post(ctx, paths.knowledgeBase.qa, body, admin.token)
    await add({
      question: 'Vendor Name',
      answer: 'Acme Learning Ltd',
      last_reviewed_at: daysAgo(200),
    })
    await add({ question: 'vendor name', answer: 'Instructure', last_reviewed_at: daysAgo(3) })
    // agreeing copies: the same Yes in other words
    await add({ question: 'Is MFA enforced?', answer: 'Yes.', last_reviewed_at: daysAgo(10) })
    await add({
      question: 'is mfa enforced?',
      answer: 'Yes, with hardware keys for every admin',
      last_reviewed_at: daysAgo(20),
    })

    const health = await healthOf(admin.token)
    const vendor = health.groups.find((group) => group.items[0]?.question.match(/vendor/i))
    expect(vendor?.kind).toBe('conflict')
    expect(vendor?.items.map((item) => [item.answer, item.newest])).toEqual([
      ['Instructure', true],
      ['Acme Learning Ltd', false],
    ])
    expect(vendor?.items[0]?.dated_at).not.toBeNull()
    const mfa = health.groups.find((group) => group.items[0]?.question.match(/mfa/i))
    expect(mfa?.kind).toBe('duplicate')
    expect(mfa?.items.some((item) => item.newest)).toBe(false)
    expect(health.counts.conflicts).toBe(1)
  })

  it('rows of completed questionnaires that name different vendors are a conflict', async () => {
    const admin = await member()
    await uploadFile(
      ctx,
      admin.token,
      'HECVAT Acme.csv',
      makeCsv([{ question: 'Vendor Name', answer: 'Acme Learning Ltd' }]),
    )
    await uploadFile(
      ctx,
      admin.token,
      'HECVAT Instructure.csv',
      makeCsv([{ question: 'Vendor Name', answer: 'Instructure' }]),
    )
    const health = await healthOf(admin.token)
    expect(health.groups).toHaveLength(1)
    const [group] = health.groups
    expect(group?.kind).toBe('conflict')
    // the later upload is the newer answer
    expect(group?.items.map((item) => [item.file_name, item.newest])).toEqual([
      ['HECVAT Instructure.csv', true],
      ['HECVAT Acme.csv', false],
    ])
  })
})
