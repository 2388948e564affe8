import { describe, expect, it } from 'vitest'
import { COLLABORATION_TEXTS } from '../../../contract/collaboration.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { paths } from '../../../contract/paths.ts'
import type { Body } from '../answering/helpers.ts'
import { call, get, insertUser, post, type TestApp, withMailApp } from '../auth/helpers.ts'
import { team as teamOf } from './team.ts'

/**
 * Issue 37, S2: a mention storm. One comment tells each person it names once, however often it is
 * edited; one comment names at most a few people; each person may write only so many comments
 * and mention only so many people a minute (429 with Retry-After past it).
 */

const Q = paths.questionnaires
const N = paths.notifications
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole))

const helpers = (ctx: TestApp) => ({
  team: () => teamOf(ctx, ['Do you encrypt data at rest?', 'Do you scan for malware?']),
  comment: (questionId: number, token: string, body: string, mentions: number[] = []) =>
    post(ctx, Q.comments(questionId), { body, mentions }, token),
  edit: (id: number, token: string, body: string, mentions: number[]) =>
    call(ctx, 'PATCH', Q.comment(id), { body: { body, mentions }, token }),
  count: async (sql: string, values: unknown[]) =>
    Number((await ctx.database.pool.query<{ n: string }>(sql, values)).rows[0]?.n),
  settle: async () => {
    await ctx.mailer.idle()
    await new Promise((r) => setTimeout(r, 200))
  },
})

describe('a mention tells each person once per comment (issue 37, S2)', () => {
  const { ctx, smtp } = withMailApp({ jobs: true, comments: { commentsPerMinute: 1_000 } })

  it('40 edits taking a mention away and giving it back send one email and one notification', async () => {
    const { team, comment, edit, settle } = helpers(ctx)
    const { contributor, approver, admin, rows } = await team()
    smtp.clear()
    const first = await comment(rows[0].id, contributor.token, '@Fix Ture please check', [
      approver.id,
    ])
    expect(first.status).toBe(201)
    for (let i = 0; i < 40; i++) {
      const res =
        i % 2 === 0
          ? await edit(first.body.id, contributor.token, `Never mind (${i})`, [])
          : await edit(first.body.id, contributor.token, `@Fix Ture please check (${i})`, [
              approver.id,
            ])
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    await settle()
    expect(smtp.to(approver.email)).toHaveLength(1)
    expect((await get(ctx, N.list, approver.token)).body.unread).toBe(1)

    // someone named for the first time in an edit is told, once
    for (let i = 0; i < 3; i++)
      await edit(first.body.id, contributor.token, `Also @admin (${i})`, [approver.id, admin.id])
    await settle()
    expect(smtp.to(admin.email)).toHaveLength(1)
    expect((await get(ctx, N.list, admin.token)).body.unread).toBe(1)
    expect(smtp.to(approver.email)).toHaveLength(1)

    // another comment is another mention
    await comment(rows[1].id, contributor.token, 'And this one', [approver.id])
    await smtp.waitFor(approver.email, { nth: 2 })
    expect((await get(ctx, N.list, approver.token)).body.unread).toBe(2)
  })

  it('refuses a comment naming more than 10 people in plain words, writing nothing', async () => {
    const { team, comment, edit, count } = helpers(ctx)
    const { contributor, orgId, rows } = await team()
    const people: number[] = []
    for (let i = 0; i < 11; i++)
      people.push((await insertUser(ctx.database, { role: 'viewer', orgId })).user.id)
    const comments = () =>
      count('select count(*) as n from question_comments where org_id = $1', [orgId])
    const notified = () =>
      count('select count(*) as n from notifications where org_id = $1', [orgId])

    const refused = await comment(rows[0].id, contributor.token, 'Everyone look', people)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      error: fill(COLLABORATION_TEXTS.tooManyPeople, { limit: 10 }),
      code: ERROR_CODES.validation,
    })
    expect(await comments()).toBe(0)
    expect(await notified()).toBe(0)

    const ten = await comment(rows[0].id, contributor.token, 'Ten of you', people.slice(0, 10))
    expect(ten.status).toBe(201)
    expect(await notified()).toBe(10)
    // an edit naming 11 is refused the same way, and the comment stays as it was
    const more = await edit(ten.body.id, contributor.token, 'All of you', people)
    expect(more.status).toBe(400)
    expect(more.body.error).toBe(fill(COLLABORATION_TEXTS.tooManyPeople, { limit: 10 }))
    const list = await get(ctx, Q.comments(rows[0].id), contributor.token)
    expect(list.body.results[0].body).toBe('Ten of you')
    expect(await notified()).toBe(10)
  })
})

describe('per-person limits on comments and mentions a minute (issue 37, S2)', () => {
  const { ctx } = withMailApp({
    jobs: true,
    comments: { commentsPerMinute: 4, mentionsPerMinute: 5 },
  })

  const expectLimited = (res: { status: number; headers: Headers; body: Body }, text: string) => {
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(res.body).toMatchObject({
      error: fill(text, { seconds: retryAfter }),
      code: ERROR_CODES.rateLimited,
    })
  }

  it('answers 429 with Retry-After past the comments a person may write in a minute', async () => {
    const { team, comment, edit, count } = helpers(ctx)
    const { contributor, approver, orgId, rows } = await team()
    const first = await comment(rows[0].id, contributor.token, 'One')
    expect(first.status).toBe(201)
    for (const body of ['Two', 'Three'])
      expect((await comment(rows[0].id, contributor.token, body)).status).toBe(201)
    // an edit is a comment written too
    expect((await edit(first.body.id, contributor.token, 'One, edited', [])).status).toBe(200)
    const refused = await comment(rows[0].id, contributor.token, 'Five')
    expectLimited(refused, fill(COLLABORATION_TEXTS.tooManyComments, { limit: 4 }))
    const tooFast = await edit(first.body.id, contributor.token, 'One, again', [])
    expect(tooFast.status).toBe(429)
    expect(
      await count('select count(*) as n from question_comments where org_id = $1', [orgId]),
    ).toBe(3)
    // the limit is each person's own
    expect((await comment(rows[0].id, approver.token, 'Mine')).status).toBe(201)
  })

  it('answers 429 past the people a person may mention in a minute; a refused comment costs nothing', async () => {
    const { team, comment, edit, count } = helpers(ctx)
    const { admin, approver, contributor, viewer, orgId, rows } = await team()
    const notified = () =>
      count('select count(*) as n from notifications where org_id = $1', [orgId])
    const a = await comment(rows[0].id, admin.token, 'You two', [approver.id, contributor.id])
    expect(a.status).toBe(201)
    expect(
      (await comment(rows[1].id, admin.token, 'You two', [contributor.id, viewer.id])).status,
    ).toBe(201)
    // naming again people the comment already told costs nothing
    expect(
      (await edit(a.body.id, admin.token, 'You two, again', [approver.id, contributor.id])).status,
    ).toBe(200)
    expect(await notified()).toBe(4)
    const refused = await comment(rows[0].id, admin.token, 'Three more', [
      approver.id,
      contributor.id,
    ])
    expectLimited(refused, fill(COLLABORATION_TEXTS.tooManyMentions, { limit: 5 }))
    expect(await notified()).toBe(4)
    expect(
      await count('select count(*) as n from question_comments where org_id = $1', [orgId]),
    ).toBe(2)
    // one more person is still within the limit (the refused comment was not counted)
    const last = await comment(rows[0].id, admin.token, 'Just you', [viewer.id])
    expect(last.status, JSON.stringify(last.body)).toBe(201)
    expect(await notified()).toBe(5)
  })
})
