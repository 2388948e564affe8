import { describe, expect, it } from 'vitest'
import { COLLABORATION_TEXTS, NOTIFICATION_KINDS } from '../../../contract/collaboration.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { inTransaction } from '../../../server/db/index.ts'
import type { HubEvent } from '../../../server/http/event-hub.ts'
import { createJobDefinitions, NOTIFICATION_DIGEST_JOB } from '../../../server/jobs/registry.ts'
import { createLogger } from '../../../server/logger.ts'
import type { NotifyEvent } from '../../../server/modules/notifications/service.ts'
import { createDiskStorage } from '../../../server/storage/index.ts'
import { linkIn } from '../../support/smtp.ts'
import { type Body, questionnaire, rowsOf } from '../answering/helpers.ts'
import { call, get, post, withMailApp } from '../auth/helpers.ts'
import { TEST_JWT_SECRET, TEST_PUBLIC_URL } from '../support.ts'
import { notificationService, person as personOf, team as teamOf } from './team.ts'

const Q = paths.questionnaires
const N = paths.notifications
const { ctx, smtp } = withMailApp({ jobs: true })

const service = () => notificationService(ctx)

const person = (orgId: number | undefined, role: Role, status?: 'active' | 'removed') =>
  personOf(ctx, orgId, role, status)
const team = () =>
  teamOf(ctx, [
    'Do you encrypt data at rest?',
    'Do you run background checks on staff?',
    'Do you have a disaster recovery plan?',
  ])

const mention = (questionId: number, by: { token: string }, ids: number[], body = 'Please look') =>
  post(ctx, Q.comments(questionId), { body, mentions: ids }, by.token)
const settle = async () => {
  await ctx.mailer.idle()
  await new Promise((r) => setTimeout(r, 150))
}
const put = (path: string, body: unknown, token: string) => call(ctx, 'PUT', path, { body, token })

describe('notifications in the app (issue 29)', () => {
  it('lists them with the unread count, marks some or all read, for every role, never across organisations', async () => {
    const { admin, approver, contributor, viewer, rows, all, orgId } = await team()
    for (const who of all) {
      const empty = await get(ctx, N.list, who.token)
      expect(empty.status).toBe(200)
      expect(empty.body).toEqual({ unread: 0, results: [] })
    }
    // three mentions of each of the others, by the admin
    for (const row of rows)
      expect((await mention(row.id, admin, [approver.id, contributor.id, viewer.id])).status).toBe(
        201,
      )
    for (const who of [approver, contributor, viewer]) {
      const list = await get(ctx, N.list, who.token)
      expect(list.body.unread).toBe(3)
      expect(list.body.results.map((n: Body) => n.question_id)).toEqual(
        rows.map((row: Body) => row.id).reverse(),
      )
      expect(list.body.results[0]).toMatchObject({
        kind: 'mentioned',
        actor: { id: String(admin.id) },
        read_at: null,
      })
    }
    const ids = (await get(ctx, N.list, viewer.token)).body.results.map((n: Body) => n.id)
    // paging
    const page = await get(ctx, `${N.list}?limit=1&before=${ids[0]}`, viewer.token)
    expect(page.body.results.map((n: Body) => n.id)).toEqual([ids[1]])
    const badLimit = await get(ctx, `${N.list}?limit=0`, viewer.token)
    expect(badLimit.status).toBe(400)

    // someone else's ids are not theirs to mark
    const stranger = await person(undefined, 'admin')
    const foreign = await post(ctx, N.read, { ids }, stranger.token)
    expect(foreign.body).toEqual({ read: 0, unread: 0 })
    const byApprover = await post(ctx, N.read, { ids }, approver.token)
    expect(byApprover.body.read).toBe(0)
    expect((await get(ctx, N.list, viewer.token)).body.unread).toBe(3)

    const one = await post(ctx, N.read, { ids: [ids[0]] }, viewer.token)
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ read: 1, unread: 2 })
    const unreadOnly = await get(ctx, `${N.list}?unread=true`, viewer.token)
    expect(unreadOnly.body.results.map((n: Body) => n.id)).toEqual(ids.slice(1))
    const rest = await post(ctx, N.read, { all: true }, viewer.token)
    expect(rest.body).toEqual({ read: 2, unread: 0 })
    const list = await get(ctx, N.list, viewer.token)
    expect(list.body.results.every((n: Body) => n.read_at !== null)).toBe(true)
    expect((await get(ctx, N.list, contributor.token)).body.unread).toBe(3)

    const bad = await post(ctx, N.read, { ids: [] }, viewer.token)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('The request is not valid')
    expect((await post(ctx, N.read, { all: false }, viewer.token)).status).toBe(400)
    expect((await get(ctx, N.list)).status).toBe(401)
    expect((await post(ctx, N.read, { all: true })).status).toBe(401)
    // a person removed from the organisation is told nothing more
    await ctx.database.pool.query(`update users set status = 'removed' where id = $1`, [
      contributor.id,
    ])
    await mention(rows[0].id, admin, [approver.id])
    const count = await ctx.database.pool.query(
      'select count(*)::int as n from notifications where user_id = $1 and org_id = $2',
      [contributor.id, orgId],
    )
    expect(count.rows[0].n).toBe(3)
  })

  it('emails each one after the commit, with a link to the question and a one-click unsubscribe', async () => {
    const { admin, approver, q, rows } = await team()
    smtp.clear()
    await mention(rows[1].id, admin, [approver.id], 'Is this still true?')
    const mail = await smtp.waitFor(approver.email)
    // who and where, never what they wrote (issue 37): the words are quoted in the body
    expect(mail.subject).toBe(`Fix Ture mentioned you on ${q.name}`)
    expect(mail.text).toContain('Fix Ture mentioned you on SEC-02 of ')
    expect(mail.text).toContain('Fix Ture wrote:\n> Is this still true?')
    const open = linkIn(mail, `/questionnaire/${q.id}`)
    expect(open.toString()).toBe(`${TEST_PUBLIC_URL}/questionnaire/${q.id}?question=${rows[1].id}`)
    const page = linkIn(mail, '/unsubscribe')
    const token = page.searchParams.get('token') ?? ''
    expect(mail.headers['list-unsubscribe']).toBe(
      `<${TEST_PUBLIC_URL}${apiPath(N.unsubscribe)}?token=${token}>`,
    )
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    expect(mail.html).toContain('Is this still true?')
    expect(smtp.to(admin.email)).toEqual([])
    // sent once: a second delivery finds nothing owed
    await service().deliver()
    await settle()
    expect(smtp.to(approver.email)).toHaveLength(1)
  })

  it('sends and announces nothing for a transaction that rolls back, and nothing before a commit', async () => {
    const { admin, approver, orgId, q, rows } = await team()
    const notifications = service()
    const heard: HubEvent[] = []
    await ctx.hub.ready()
    const off = ctx.hub.subscribe(`user:${approver.id}`, (event) => heard.push(event))
    const event: NotifyEvent = {
      orgId,
      userId: approver.id,
      kind: 'assigned',
      text: 'Fix Ture assigned you SEC-01',
      actorId: admin.id,
      questionnaireId: q.id,
      questionId: rows[0].id,
    }
    smtp.clear()
    await expect(
      inTransaction(ctx.database.pool, async (client) => {
        await notifications.notify(client, [event])
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    await notifications.deliver()
    await settle()
    expect(smtp.to(approver.email)).toEqual([])
    expect(heard).toEqual([])
    expect((await get(ctx, N.list, approver.token)).body.unread).toBe(0)

    // inside an open transaction another node's delivery sees nothing yet
    await inTransaction(ctx.database.pool, async (client) => {
      await notifications.notify(client, [event, { ...event, userId: admin.id }])
      await notifications.deliver()
      await settle()
      expect(smtp.to(approver.email)).toEqual([])
      expect(heard).toEqual([])
    })
    await notifications.deliver()
    const mail = await smtp.waitFor(approver.email)
    expect(mail.subject).toBe('Fix Ture assigned you SEC-01')
    for (let i = 0; i < 100 && !heard.length; i++) await new Promise((r) => setTimeout(r, 20))
    off()
    const [row] = (await get(ctx, N.list, approver.token)).body.results
    expect(heard).toEqual([
      { key: `user:${approver.id}`, org: orgId, type: 'notification', data: { id: row.id } },
    ])
    // the actor is never told of their own doing
    expect(smtp.to(admin.email)).toEqual([])
  })

  it('follows each person’s preferences: email off sends none, in-app off lists none', async () => {
    const { admin, approver, contributor, viewer, all, rows } = await team()
    for (const who of all) {
      const prefs = await get(ctx, paths.me.notificationPreferences, who.token)
      expect(prefs.status).toBe(200)
      expect(prefs.body.preferences).toEqual(
        Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, 'both'])),
      )
    }
    const set = await put(
      paths.me.notificationPreferences,
      { preferences: { mentioned: 'in_app' } },
      approver.token,
    )
    expect(set.status).toBe(200)
    expect(set.body.preferences).toMatchObject({ mentioned: 'in_app', assigned: 'both' })
    expect(
      (
        await post(
          ctx,
          paths.me.notificationPreferences,
          { preferences: { mentioned: 'email' } },
          contributor.token,
        )
      ).body.preferences.mentioned,
    ).toBe('email')
    expect(
      (
        await put(
          paths.me.notificationPreferences,
          { preferences: { mentioned: 'off' } },
          viewer.token,
        )
      ).body.preferences.mentioned,
    ).toBe('off')
    const bad = await put(
      paths.me.notificationPreferences,
      { preferences: { mentioned: 'sometimes' } },
      viewer.token,
    )
    expect(bad.status).toBe(400)
    expect(
      (await put(paths.me.notificationPreferences, { preferences: { nope: 'off' } }, viewer.token))
        .status,
    ).toBe(400)
    expect((await get(ctx, paths.me.notificationPreferences)).status).toBe(401)

    smtp.clear()
    await mention(rows[0].id, admin, [approver.id, contributor.id, viewer.id])
    await smtp.waitFor(contributor.email)
    await settle()
    // in the app only: listed, not emailed
    expect(smtp.to(approver.email)).toEqual([])
    expect((await get(ctx, N.list, approver.token)).body.unread).toBe(1)
    // email only: emailed, not listed
    expect((await get(ctx, N.list, contributor.token)).body).toEqual({ unread: 0, results: [] })
    // off: nothing
    expect(smtp.to(viewer.email)).toEqual([])
    expect((await get(ctx, N.list, viewer.token)).body.unread).toBe(0)
  })

  it('unsubscribes with the mailed token (POST), checks it (GET), and refuses a forged one', async () => {
    const { admin, approver, rows } = await team()
    smtp.clear()
    await mention(rows[0].id, admin, [approver.id])
    const mail = await smtp.waitFor(approver.email)
    const token = linkIn(mail, '/unsubscribe').searchParams.get('token') ?? ''
    const at = `${N.unsubscribe}?token=${encodeURIComponent(token)}`

    const checked = await get(ctx, at)
    expect(checked.body).toEqual({ valid: true, kind: 'mentioned' })
    // checking changes nothing
    const before = await get(ctx, paths.me.notificationPreferences, approver.token)
    expect(before.body.preferences.mentioned).toBe('both')

    const forged = `${token.split('.')[0]}.${'A'.repeat(43)}`
    const refused = await post(ctx, `${N.unsubscribe}?token=${forged}`)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe(COLLABORATION_TEXTS.unsubscribeInvalid)
    expect((await get(ctx, `${N.unsubscribe}?token=${forged}`)).body).toEqual({
      valid: false,
      kind: null,
    })
    expect((await post(ctx, N.unsubscribe)).status).toBe(400)
    // another person's id under this signature is refused
    const other = Buffer.from(`${admin.id}:all`).toString('base64url')
    expect((await post(ctx, `${N.unsubscribe}?token=${other}.${token.split('.')[1]}`)).status).toBe(
      400,
    )

    // a mail client's one-click POST (RFC 8058): no session, a form body
    const res = await ctx.app.request(apiPath(at), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: COLLABORATION_TEXTS.unsubscribed })
    const after = await get(ctx, paths.me.notificationPreferences, approver.token)
    expect(after.body.preferences).toMatchObject({ mentioned: 'in_app', assigned: 'both' })

    smtp.clear()
    await mention(rows[1].id, admin, [approver.id])
    await settle()
    expect(smtp.to(approver.email)).toEqual([])
    expect((await get(ctx, N.list, approver.token)).body.unread).toBe(2)
  })

  it('streams the signed-in person’s new notifications, and nobody else’s', async () => {
    const { admin, approver, contributor, rows } = await team()
    const abort = new AbortController()
    const res = await ctx.app.request(apiPath(N.stream), {
      headers: { authorization: `Bearer ${approver.token}` },
      signal: abort.signal,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = res.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
    const decoder = new TextDecoder()
    let text = ''
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended: ${text}`)
        text += decoder.decode(value, { stream: true })
      }
    }
    await until(/event: unread\ndata: \{"unread":0\}/)
    await mention(rows[0].id, admin, [contributor.id], 'Not for the approver')
    await mention(rows[0].id, admin, [approver.id], 'For the approver')
    await until(/event: notification\ndata: .*For the approver/)
    expect(text).not.toContain('Not for the approver')
    expect(text).toMatch(/"unread":1/)
    abort.abort()
    await reader.cancel().catch(() => {})
    expect((await get(ctx, N.stream)).status).toBe(401)
  })
})

describe('the daily email of due and overdue work (issue 29)', () => {
  it('reminds each active assignee once a day, in one email, of work due in 2 days or overdue', async () => {
    const { admin, approver, contributor, orgId, q, rows } = await team()
    const removed = await person(orgId, 'contributor')
    const other = await questionnaire(ctx, admin.token, [
      'Do you patch monthly?',
      'Do you scan?',
      'Do you pen-test?',
    ])
    const otherRows = await rowsOf(ctx, admin.token, other.id)
    const sent = await questionnaire(ctx, admin.token, ['Do you train staff?'])
    const sentRows = await rowsOf(ctx, admin.token, sent.id)
    const sql = (text: string, values: unknown[]) => ctx.database.pool.query(text, values)
    for (const [id, name] of [
      [q.id, 'CAIQ v4'],
      [other.id, 'SIG Lite'],
      [sent.id, 'HECVAT'],
    ] as const)
      await sql('update questionnaires set name = $2 where id = $1', [id, name])
    const assign = (ids: number[], userId: number, due: string | null, state = 'assigned') =>
      sql(
        `update questionnaire_questions set assignee_id = $2, assignment_due_date = $3::date,
                review_state = $4 where id = any($1::bigint[])`,
        [ids, userId, due, state],
      )
    // CAIQ is due on the 12th: its questions without a date of their own follow it
    await sql('update questionnaires set due_date = $2 where id = $1', [q.id, '2030-01-12'])
    await assign([rows[0].id, rows[1].id], contributor.id, null)
    // approved: nothing left to do
    await assign([rows[2].id], contributor.id, '2030-01-11', 'approved')
    await assign([otherRows[0].id], contributor.id, '2030-01-05')
    // not yet within 2 days
    await assign([otherRows[1].id], approver.id, '2030-01-20')
    // a person since removed
    await assign([otherRows[2].id], removed.id, '2030-01-04')
    await sql(`update users set status = 'removed' where id = $1`, [removed.id])
    // a questionnaire already sent to its customer
    await assign([sentRows[0].id], contributor.id, '2030-01-01')
    await sql(`update questionnaires set work_status = 'sent' where id = $1`, [sent.id])

    smtp.clear()
    const notifications = notificationService(ctx, { now: () => new Date('2030-01-10T07:00:00Z') })
    expect(await notifications.digest()).toEqual({ reminders: 2, people: 1 })
    const mail = await smtp.waitFor(contributor.email)
    await settle()
    expect(smtp.to(contributor.email)).toHaveLength(1)
    expect(mail.subject).toBe('2 reminders about your questionnaire work')
    expect(mail.text).toContain('2 questions of CAIQ v4 are due by 2030-01-12')
    expect(mail.text).toContain('1 question of SIG Lite is overdue (due 2030-01-05)')
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/questionnaire/${q.id}?question=${rows[0].id}`)
    expect(mail.text).not.toContain('HECVAT')
    expect(linkIn(mail, '/unsubscribe').searchParams.get('token')).toBeTruthy()
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    // due on the 20th, and a removed person: nothing
    expect(smtp.to(approver.email)).toEqual([])
    expect(smtp.to(removed.email)).toEqual([])

    const listed = await get(ctx, N.list, contributor.token)
    expect(listed.body.results.map((n: Body) => n.kind).sort()).toEqual(['due_soon', 'overdue'])
    expect(listed.body.results.every((n: Body) => n.actor === null)).toBe(true)

    // a second run the same day adds and sends nothing
    expect(await notifications.digest(new Date('2030-01-10T18:00:00Z'))).toEqual({
      reminders: 2,
      people: 0,
    })
    await settle()
    expect(smtp.to(contributor.email)).toHaveLength(1)
    expect((await get(ctx, N.list, contributor.token)).body.results).toHaveLength(2)

    // the next day: again, now both overdue after the 12th has passed
    await notifications.digest(new Date('2030-01-13T07:00:00Z'))
    const next = await smtp.waitFor(contributor.email, { nth: 2 })
    expect(next.text).toContain('2 questions of CAIQ v4 are overdue (due 2030-01-12)')
    expect(next.text).toContain('1 question of SIG Lite is overdue (due 2030-01-05)')
    expect(smtp.to(approver.email)).toEqual([])

    // email off for overdue: listed only; the digest skips it
    await put(
      paths.me.notificationPreferences,
      { preferences: { overdue: 'in_app', due_soon: 'in_app' } },
      contributor.token,
    )
    await notifications.digest(new Date('2030-01-14T07:00:00Z'))
    await settle()
    expect(smtp.to(contributor.email)).toHaveLength(2)
    expect((await get(ctx, N.list, contributor.token)).body.results).toHaveLength(6)
  })

  it('runs every morning as a job of the workers', async () => {
    const job = createJobDefinitions({
      database: ctx.database,
      storage: createDiskStorage(ctx.dataDir),
      logger: createLogger('silent'),
      parseLimits: {},
      urlFetchAllow: [],
      mailer: ctx.mailer,
      publicUrl: TEST_PUBLIC_URL,
      secret: TEST_JWT_SECRET,
    }).find((definition) => definition.name === NOTIFICATION_DIGEST_JOB)
    expect(job?.cron).toBe('0 7 * * *')
  })
})
