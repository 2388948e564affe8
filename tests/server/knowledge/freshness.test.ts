import { describe, expect, it } from 'vitest'
import { FRESHNESS_TEXTS } from '../../../contract/freshness.ts'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { call, DAY, get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any

const ctx = withTestApp()

async function member(role: Role = 'approver', orgId?: number) {
  const fixture = await insertUser(ctx.database, { role, orgId })
  return { ...fixture, id: fixture.user.id, token: (await signIn(ctx, fixture.email)).access }
}

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()
const patch = (path: string, body: unknown, token: string) =>
  call(ctx, 'PATCH', path, { body, token })
const item = (token: string, body: Record<string, unknown>) =>
  post(
    ctx,
    paths.knowledgeBase.qa,
    { question: 'Is data encrypted at rest?', answer: 'Yes.', ...body },
    token,
  )

describe('library answers have an owner, a last review and a review cycle (issue 28)', () => {
  it('a new item is fresh on the organisation’s 12-month cycle, reviewed now by its author', async () => {
    const admin = await member('admin')
    const made = await item(admin.token, {})
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body).toMatchObject({
      owner_id: null,
      owner: null,
      review_cycle_days: 365,
      review_cycle_inherited: true,
      freshness: 'fresh',
      reviewed_by: { id: String(admin.id) },
    })
    expect(Date.now() - Date.parse(made.body.last_reviewed_at)).toBeLessThan(60_000)
    const due = Date.parse(made.body.review_due_at) - Date.parse(made.body.last_reviewed_at)
    expect(due).toBe(365 * DAY)
  })

  it('states fresh, due and stale from the last review and the cycle, and one click makes it fresh', async () => {
    const admin = await member('admin')
    const stale = await item(admin.token, { last_reviewed_at: daysAgo(400) })
    expect(stale.body.freshness).toBe('stale')
    const due = await item(admin.token, { last_reviewed_at: daysAgo(50), review_cycle_days: 60 })
    expect(due.body).toMatchObject({
      freshness: 'due',
      review_cycle_days: 60,
      review_cycle_inherited: false,
    })
    const dated = await item(admin.token, { last_reviewed_at: '2026-01-05' })
    expect(dated.body.last_reviewed_at).toBe('2026-01-05T00:00:00.000Z')

    const reviewed = await post(ctx, paths.knowledgeBase.qaReviewed(stale.body.id), {}, admin.token)
    expect(reviewed.status).toBe(200)
    expect(reviewed.body.freshness).toBe('fresh')
    expect(Date.now() - Date.parse(reviewed.body.last_reviewed_at)).toBeLessThan(60_000)
    // the answer itself is untouched
    expect(reviewed.body.answer).toBe('Yes.')
    expect(
      (await get(ctx, paths.knowledgeBase.qaItem(stale.body.id), admin.token)).body,
    ).toMatchObject({ freshness: 'fresh' })
  })

  it('rewriting the answer is a review; tags, owner or cycle alone are not', async () => {
    const admin = await member('admin')
    const made = await item(admin.token, { last_reviewed_at: daysAgo(400) })
    const tagged = await patch(
      paths.knowledgeBase.qaItem(made.body.id),
      { tags: ['SOC 2'] },
      admin.token,
    )
    expect(tagged.body.freshness).toBe('stale')
    const cycled = await patch(
      paths.knowledgeBase.qaItem(made.body.id),
      { review_cycle_days: 1000 },
      admin.token,
    )
    expect(cycled.body).toMatchObject({ freshness: 'fresh', review_cycle_days: 1000 })
    const back = await patch(
      paths.knowledgeBase.qaItem(made.body.id),
      { review_cycle_days: null },
      admin.token,
    )
    expect(back.body).toMatchObject({
      freshness: 'stale',
      review_cycle_days: 365,
      review_cycle_inherited: true,
    })
    const rewritten = await patch(
      paths.knowledgeBase.qaItem(made.body.id),
      { answer: 'Yes, with AES-256.' },
      admin.token,
    )
    expect(rewritten.body.freshness).toBe('fresh')
    // a review date sent with the edit is the one kept
    const backdated = await patch(
      paths.knowledgeBase.qaItem(made.body.id),
      { answer: 'Yes, AES-256.', last_reviewed_at: daysAgo(380) },
      admin.token,
    )
    expect(backdated.body.freshness).toBe('stale')
  })

  it('the organisation’s cycle moves every item that has none of its own', async () => {
    const admin = await member('admin')
    const inherited = await item(admin.token, { last_reviewed_at: daysAgo(45) })
    const own = await item(admin.token, { last_reviewed_at: daysAgo(45), review_cycle_days: 365 })
    const changed = await post(
      ctx,
      paths.account.updateOrganization,
      { review_cycle_days: 60 },
      admin.token,
    )
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.review_cycle_days).toBe(60)
    expect(
      (await get(ctx, paths.knowledgeBase.qaItem(inherited.body.id), admin.token)).body,
    ).toMatchObject({ freshness: 'due', review_cycle_days: 60 })
    expect(
      (await get(ctx, paths.knowledgeBase.qaItem(own.body.id), admin.token)).body,
    ).toMatchObject({ freshness: 'fresh', review_cycle_days: 365 })
    const zero = await post(
      ctx,
      paths.account.updateOrganization,
      { review_cycle_days: 0 },
      admin.token,
    )
    expect(zero.status).toBe(400)
  })

  it('an owner is an active person of the organisation who can work on its knowledge', async () => {
    const admin = await member('admin')
    const contributor = await member('contributor', admin.orgId)
    const viewer = await member('viewer', admin.orgId)
    const stranger = await member('admin')
    const owned = await item(admin.token, { owner_id: contributor.id })
    expect(owned.status).toBe(201)
    expect(owned.body).toMatchObject({
      owner_id: contributor.id,
      owner: { id: String(contributor.id) },
    })
    for (const owner of [viewer.id, stranger.id, 987_654_321]) {
      const refused = await item(admin.token, { owner_id: owner })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toBe(FRESHNESS_TEXTS.ownerNotMember)
    }
    // nothing was written by the refused calls
    expect((await get(ctx, paths.knowledgeBase.qa, admin.token)).body.count).toBe(1)
    const cleared = await patch(
      paths.knowledgeBase.qaItem(owned.body.id),
      { owner_id: null },
      admin.token,
    )
    expect(cleared.body).toMatchObject({ owner_id: null, owner: null })
  })

  it('the owner or a library manager marks it reviewed; others are refused, other organisations see 404', async () => {
    const admin = await member('admin')
    const owner = await member('contributor', admin.orgId)
    const other = await member('contributor', admin.orgId)
    const viewer = await member('viewer', admin.orgId)
    const stranger = await member('admin')
    const made = await item(admin.token, { owner_id: owner.id, last_reviewed_at: daysAgo(500) })
    const path = paths.knowledgeBase.qaReviewed(made.body.id)
    for (const refused of [other, viewer]) {
      const response = await post(ctx, path, {}, refused.token)
      expect(response.status).toBe(403)
      expect(response.body.error).toBe(KNOWLEDGE_TEXTS.reviewNotAllowed)
    }
    expect((await post(ctx, path, {}, stranger.token)).status).toBe(404)
    expect(
      (await get(ctx, paths.knowledgeBase.qaItem(made.body.id), admin.token)).body.freshness,
    ).toBe('stale')
    const confirmed = await post(ctx, path, {}, owner.token)
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({
      freshness: 'fresh',
      reviewed_by: { id: String(owner.id) },
    })
    expect(
      (await post(ctx, paths.knowledgeBase.qaReviewed(99_999_999), {}, admin.token)).status,
    ).toBe(404)
  })

  it('the list filters by freshness and owner, and orders by when each falls due', async () => {
    const admin = await member('admin')
    const owner = await member('approver', admin.orgId)
    const stale = await item(admin.token, { last_reviewed_at: daysAgo(700), owner_id: owner.id })
    const due = await item(admin.token, { last_reviewed_at: daysAgo(340) })
    const fresh = await item(admin.token, { owner_id: admin.id })
    const older = await item(admin.token, { last_reviewed_at: daysAgo(900) })
    const ids = async (query: string, token = admin.token) => {
      const response = await get(ctx, `${paths.knowledgeBase.qa}?${query}`, token)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return response.body.results.map((row: Body) => row.id)
    }
    expect(await ids('freshness=stale&order=review')).toEqual([older.body.id, stale.body.id])
    expect(await ids('freshness=due')).toEqual([due.body.id])
    expect(await ids('freshness=fresh')).toEqual([fresh.body.id])
    expect(await ids('owner=me')).toEqual([fresh.body.id])
    expect(await ids('owner=me', owner.token)).toEqual([stale.body.id])
    expect(await ids(`owner=${owner.id}&freshness=stale`)).toEqual([stale.body.id])
    expect((await ids('owner=none')).sort()).toEqual([due.body.id, older.body.id].sort())
    expect((await get(ctx, `${paths.knowledgeBase.qa}?freshness=old`, admin.token)).status).toBe(
      400,
    )
  })

  it('refuses review dates in the future or unreadable, and cycles out of range, writing nothing', async () => {
    const admin = await member('admin')
    const future = await item(admin.token, {
      last_reviewed_at: new Date(Date.now() + 2 * DAY).toISOString(),
    })
    expect(future.status).toBe(400)
    expect(future.body.detail[0].message).toBe(FRESHNESS_TEXTS.futureReview)
    const unreadable = await item(admin.token, { last_reviewed_at: 'last spring' })
    expect(unreadable.status).toBe(400)
    expect(unreadable.body.detail[0].message).toBe(FRESHNESS_TEXTS.badReviewDate)
    for (const cycle of [0, -5, 1.5, 10_000]) {
      expect((await item(admin.token, { review_cycle_days: cycle })).status).toBe(400)
    }
    expect((await get(ctx, paths.knowledgeBase.qa, admin.token)).body.count).toBe(0)
  })
})
