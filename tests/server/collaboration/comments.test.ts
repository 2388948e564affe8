import { describe, expect, it } from 'vitest'
import { COLLABORATION_TEXTS } from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import type { HubEvent } from '../../../server/http/event-hub.ts'
import type { Body } from '../answering/helpers.ts'
import { call, get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { person as personOf, team as teamOf } from './team.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

const person = (orgId: number | undefined, role: Role, status?: 'active' | 'removed') =>
  personOf(ctx, orgId, role, status)
const team = () =>
  teamOf(ctx, ['Do you encrypt data at rest?', 'Do you run background checks on staff?'])

const replyTo = (questionId: number, by: { token: string }, body: string, parent: number) =>
  post(ctx, Q.comments(questionId), { body, parent_id: parent }, by.token)
const detail = (res: { body: Body }) => res.body.detail?.[0]?.message ?? res.body.error
const patch = (path: string, body: unknown, token: string) =>
  call(ctx, 'PATCH', path, { body, token })
const del = (path: string, token: string) => call(ctx, 'DELETE', path, { token })
const count = async (sql: string, values: unknown[]) =>
  Number((await ctx.database.pool.query<{ n: string }>(sql, values)).rows[0]?.n)

describe('comments on a question (issue 29)', () => {
  it('lets every writer comment and every role read; viewers and other organisations cannot', async () => {
    const { admin, approver, contributor, viewer, q, rows } = await team()
    const question = rows[0].id
    for (const [who, text] of [
      [admin, 'Admin: see the policy'],
      [approver, 'Approver: fine by me'],
      [contributor, 'Contributor: drafted'],
    ] as const) {
      const res = await post(ctx, Q.comments(question), { body: `  ${text}  ` }, who.token)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body).toMatchObject({
        question_id: question,
        parent_id: null,
        author: { id: String(who.id) },
        body: text,
        deleted: false,
        edited_at: null,
        resolved_at: null,
      })
    }
    const denied = await post(ctx, Q.comments(question), { body: 'Viewer here' }, viewer.token)
    expect(denied.status).toBe(403)
    for (const who of [admin, approver, contributor, viewer]) {
      const list = await get(ctx, Q.comments(question), who.token)
      expect(list.status).toBe(200)
      expect(list.body.results.map((c: Body) => c.body)).toEqual([
        'Admin: see the policy',
        'Approver: fine by me',
        'Contributor: drafted',
      ])
    }
    // the other question has none
    expect((await get(ctx, Q.comments(rows[1].id), viewer.token)).body.results).toEqual([])

    // the activity says who commented on what
    const activity = await get(ctx, Q.activity(q.id), viewer.token)
    expect(activity.body.results[0]).toMatchObject({
      kind: 'commented',
      summary: 'Commented on SEC-01',
      by: { id: String(contributor.id) },
      question_id: question,
    })

    // another organisation sees nothing and changes nothing: 404 for every call
    const stranger = await person(undefined, 'admin')
    const first = (await get(ctx, Q.comments(question), admin.token)).body.results[0]
    expect((await get(ctx, Q.comments(question), stranger.token)).status).toBe(404)
    expect((await post(ctx, Q.comments(question), { body: 'Hi' }, stranger.token)).status).toBe(404)
    expect((await patch(Q.comment(first.id), { body: 'Mine now' }, stranger.token)).status).toBe(
      404,
    )
    expect(
      (await post(ctx, Q.comment(first.id), { body: 'Mine now' }, stranger.token)).status,
    ).toBe(404)
    expect((await del(Q.comment(first.id), stranger.token)).status).toBe(404)
    expect((await post(ctx, Q.resolveComment(first.id), {}, stranger.token)).status).toBe(404)
    expect((await post(ctx, Q.reopenComment(first.id), {}, stranger.token)).status).toBe(404)
    expect((await get(ctx, Q.comments(99_999_999), admin.token)).status).toBe(404)
    expect((await get(ctx, Q.comments(question))).status).toBe(401)
  })

  it('keeps the text as plain text and refuses an empty or oversized one in plain words', async () => {
    const { contributor, rows } = await team()
    const markup = '<script>alert(1)</script> & <b>bold</b>'
    const res = await post(ctx, Q.comments(rows[0].id), { body: markup }, contributor.token)
    expect(res.body.body).toBe(markup)
    const empty = await post(ctx, Q.comments(rows[0].id), { body: '   ' }, contributor.token)
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('The request is not valid')
    expect(detail(empty)).toBe('A comment needs some text')
    const long = await post(
      ctx,
      Q.comments(rows[0].id),
      { body: 'x'.repeat(5_001) },
      contributor.token,
    )
    expect(detail(long)).toBe('A comment is at most 5,000 characters')
  })

  it('threads replies under a first comment only, and announces each change to the viewers', async () => {
    const { admin, contributor, approver, orgId, q, rows } = await team()
    const events: HubEvent[] = []
    await ctx.hub.ready()
    const off = ctx.hub.subscribe(`questionnaire:${q.id}`, (event) => events.push(event))
    const first = await post(ctx, Q.comments(rows[0].id), { body: 'Which key store?' }, admin.token)
    const reply = await replyTo(rows[0].id, contributor, 'KMS', first.body.id)
    expect(reply.status).toBe(201)
    expect(reply.body.parent_id).toBe(first.body.id)
    const replyToReply = await replyTo(rows[0].id, approver, 'Which region?', reply.body.id)
    expect(replyToReply.status).toBe(400)
    expect(replyToReply.body.error).toBe(COLLABORATION_TEXTS.replyToReply)
    // a thread of another question is not this question's
    const elsewhere = await replyTo(rows[1].id, approver, 'Here?', first.body.id)
    expect(elsewhere.status).toBe(400)
    const later = await post(ctx, Q.comments(rows[0].id), { body: 'Another topic' }, approver.token)
    const again = await replyTo(rows[0].id, approver, 'AWS KMS, eu-west-1', first.body.id)
    const list = await get(ctx, Q.comments(rows[0].id), admin.token)
    // each thread together: its first comment, then its replies
    expect(list.body.results.map((c: Body) => c.id)).toEqual([
      first.body.id,
      reply.body.id,
      again.body.id,
      later.body.id,
    ])
    for (let i = 0; i < 100 && events.length < 4; i++) await new Promise((r) => setTimeout(r, 20))
    expect(events[0]).toEqual({
      key: `questionnaire:${q.id}`,
      org: orgId,
      type: 'change',
      data: { kind: 'comments', question_ids: [rows[0].id], by: admin.id },
    })
    // four comments, four announcements: the refused replies announced nothing
    await new Promise((r) => setTimeout(r, 100))
    off()
    expect(events).toHaveLength(4)
  })

  it('tells the people mentioned, and refuses a mention outside the organisation, writing nothing', async () => {
    const { admin, approver, contributor, viewer, orgId, rows } = await team()
    const removed = await person(orgId, 'contributor', 'removed')
    const stranger = await person(undefined, 'admin')
    const question = rows[0].id
    const comments = () =>
      count('select count(*) as n from question_comments where question_id = $1', [question])
    const notified = () =>
      count('select count(*) as n from notifications where org_id = $1', [orgId])

    for (const outsider of [stranger.id, removed.id, 99_999_999]) {
      const res = await post(
        ctx,
        Q.comments(question),
        { body: 'Can you check?', mentions: [approver.id, outsider] },
        contributor.token,
      )
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(COLLABORATION_TEXTS.mentionOutside)
    }
    expect(await comments()).toBe(0)
    expect(await notified()).toBe(0)

    const ok = await post(
      ctx,
      Q.comments(question),
      // the author mentioning themself is not told
      { body: '@Fix Ture can you check?', mentions: [approver.id, viewer.id, contributor.id] },
      contributor.token,
    )
    expect(ok.status).toBe(201)
    expect(ok.body.mentions.map((m: Body) => m.id).sort()).toEqual(
      [approver.id, viewer.id, contributor.id].map(String).sort(),
    )
    const inbox = await get(ctx, paths.notifications.list, approver.token)
    expect(inbox.body.unread).toBe(1)
    expect(inbox.body.results[0]).toMatchObject({
      kind: 'mentioned',
      actor: { id: String(contributor.id) },
      question_id: question,
      read_at: null,
    })
    expect(inbox.body.results[0].text).toMatch(
      /^Fix Ture mentioned you on SEC-01 of .+: “@Fix Ture can you check\?”$/,
    )
    expect((await get(ctx, paths.notifications.list, viewer.token)).body.unread).toBe(1)
    expect((await get(ctx, paths.notifications.list, contributor.token)).body.unread).toBe(0)
    expect((await get(ctx, paths.notifications.list, admin.token)).body.unread).toBe(0)

    // an edit that mentions someone new tells only them
    const edited = await patch(
      Q.comment(ok.body.id),
      { body: 'Admin too, please', mentions: [approver.id, admin.id] },
      contributor.token,
    )
    expect(edited.status).toBe(200)
    expect((await get(ctx, paths.notifications.list, admin.token)).body.unread).toBe(1)
    expect((await get(ctx, paths.notifications.list, approver.token)).body.unread).toBe(1)
    const outside = await patch(
      Q.comment(ok.body.id),
      { body: 'And you', mentions: [stranger.id] },
      contributor.token,
    )
    expect(outside.status).toBe(400)
    expect(outside.body.error).toBe(COLLABORATION_TEXTS.mentionOutside)
    const still = await get(ctx, Q.comments(question), contributor.token)
    expect(still.body.results[0].body).toBe('Admin too, please')
  })

  it('lets authors edit and delete their own; admins delete any; the thread stays', async () => {
    const { admin, approver, contributor, viewer, rows } = await team()
    const question = rows[0].id
    const first = await post(ctx, Q.comments(question), { body: 'Draft is up' }, contributor.token)
    const reply = await replyTo(question, approver, 'Looks good', first.body.id)

    const edited = await patch(
      Q.comment(first.body.id),
      { body: ' Draft v2 is up ' },
      contributor.token,
    )
    expect(edited.status).toBe(200)
    expect(edited.body.body).toBe('Draft v2 is up')
    expect(edited.body.edited_at).not.toBeNull()
    // the POST form edits too
    const viaPost = await post(
      ctx,
      Q.comment(first.body.id),
      { body: 'Draft v3' },
      contributor.token,
    )
    expect(viaPost.body.body).toBe('Draft v3')

    for (const other of [approver, admin]) {
      const res = await patch(Q.comment(first.body.id), { body: 'Not mine' }, other.token)
      expect(res.status).toBe(403)
      expect(res.body.error).toBe(COLLABORATION_TEXTS.notYourComment)
    }
    expect((await patch(Q.comment(first.body.id), { body: 'x' }, viewer.token)).status).toBe(403)
    const notTheirs = await del(Q.comment(reply.body.id), contributor.token)
    expect(notTheirs.status).toBe(403)
    expect(notTheirs.body.error).toBe(COLLABORATION_TEXTS.notYourComment)
    expect((await del(Q.comment(reply.body.id), viewer.token)).status).toBe(403)

    // the author deletes the first comment: the reply keeps its thread
    const gone = await del(Q.comment(first.body.id), contributor.token)
    expect(gone.status).toBe(200)
    expect(gone.body).toMatchObject({ id: first.body.id, body: '', deleted: true, mentions: [] })
    // an admin deletes anyone's
    expect((await del(Q.comment(reply.body.id), admin.token)).body.deleted).toBe(true)
    const list = await get(ctx, Q.comments(question), viewer.token)
    expect(list.body.results).toMatchObject([
      { id: first.body.id, body: '', deleted: true },
      { id: reply.body.id, parent_id: first.body.id, body: '', deleted: true },
    ])
    const stored = await ctx.database.pool.query(
      'select body from question_comments where id = $1',
      [first.body.id],
    )
    expect(stored.rows[0].body).toBe('')
    // deleted: no more edits, no second delete
    expect(
      (await patch(Q.comment(first.body.id), { body: 'Back' }, contributor.token)).status,
    ).toBe(404)
    expect((await del(Q.comment(first.body.id), contributor.token)).status).toBe(404)
  })

  it('resolves and reopens a thread, by any writer', async () => {
    const { admin, approver, contributor, viewer, rows } = await team()
    const question = rows[1].id
    const first = await post(ctx, Q.comments(question), { body: 'Which vendor?' }, admin.token)
    const reply = await replyTo(question, contributor, 'Checkr', first.body.id)
    expect((await post(ctx, Q.resolveComment(first.body.id), {}, viewer.token)).status).toBe(403)
    // resolving through a reply resolves its thread
    const resolved = await post(ctx, Q.resolveComment(reply.body.id), {}, contributor.token)
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({
      id: first.body.id,
      resolved_by: { id: String(contributor.id) },
    })
    expect(resolved.body.resolved_at).not.toBeNull()
    const reopened = await post(ctx, Q.reopenComment(first.body.id), {}, approver.token)
    expect(reopened.status).toBe(200)
    expect(reopened.body).toMatchObject({ resolved_at: null, resolved_by: null })
    const again = await post(ctx, Q.resolveComment(first.body.id), {}, admin.token)
    expect(again.body.resolved_by.id).toBe(String(admin.id))
    const list = await get(ctx, Q.comments(question), viewer.token)
    expect(list.body.results[0].resolved_by.id).toBe(String(admin.id))
    expect(list.body.results[1].resolved_at).toBeNull()
  })
})
