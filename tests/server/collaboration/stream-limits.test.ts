import { describe, expect, it } from 'vitest'
import { ERROR_TEXTS } from '../../../contract/errors.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { STREAM_TEXTS } from '../../../contract/streams.ts'
import { inTransaction } from '../../../server/db/index.ts'
import { readEvents } from '../../support/sse.ts'
import { type Body, member, questionnaire, rowsOf } from '../answering/helpers.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * Issue 37, S1, S3, S6, S7: one person's flood of live streams is refused past its caps while
 * everyone else is answered; a session that ends closes its streams at once; a lost event
 * listener makes every stream resynchronise; a busy pool is back-pressure for one request, not
 * an outage; a held connection the database drops does not crash the process.
 */

const Q = paths.questionnaires
const N = paths.notifications
const ctx = withTestApp({
  jobs: true,
  streamLimits: { perQuestionnaire: 3, perSession: 5, perPerson: 6, perNode: 200 },
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function open(path: string, token: string) {
  const abort = new AbortController()
  const res = await ctx.app.request(apiPath(path), {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  })
  return readEvents(res, abort)
}

/** A viewer of `orgId`, signed in once per `sessions`. */
async function viewer(orgId: number, sessions = 1) {
  const fixture = await insertUser(ctx.database, { role: 'viewer', orgId })
  const tokens: string[] = []
  for (let i = 0; i < sessions; i++) tokens.push((await signIn(ctx, fixture.email)).access)
  return { ...fixture, tokens }
}

describe('live streams have caps (issue 37, S1)', () => {
  it('refuses a person past their share per questionnaire, per session and in all, with 429 and Retry-After', async () => {
    const admin = await member(ctx)
    const [q1, q2] = [
      await questionnaire(ctx, admin.token, ['Do you encrypt backups?']),
      await questionnaire(ctx, admin.token, ['Do you log access?']),
    ]
    const person = await viewer(admin.orgId, 2)
    const [first, second] = person.tokens as [string, string]
    const held = []
    for (let i = 0; i < 3; i++) held.push(await open(Q.events(q1.id), first))
    expect(held.map((s) => s.status)).toEqual([200, 200, 200])
    const overQuestionnaire = await open(Q.events(q1.id), first)
    expect(overQuestionnaire.status).toBe(429)
    expect(overQuestionnaire.headers.get('retry-after')).toBe('30')
    // the same session on another questionnaire, up to the session's cap of 5
    held.push(await open(Q.events(q2.id), first), await open(Q.events(q2.id), first))
    expect(held.map((s) => s.status)).toEqual([200, 200, 200, 200, 200])
    expect((await open(N.stream, first)).status).toBe(429)
    // another sign-in of the same person: one more, then the person's cap of 6
    const sixth = await open(N.stream, second)
    expect(sixth.status).toBe(200)
    const overPerson = await open(N.stream, second)
    expect(overPerson.status).toBe(429)
    // the refusal is in plain words
    const refused = await ctx.app.request(apiPath(Q.events(q2.id)), {
      headers: { authorization: `Bearer ${second}` },
    })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({
      error: STREAM_TEXTS.tooMany,
      code: 'rate_limited',
    })
    // someone else in the organisation is not affected
    const colleague = await viewer(admin.orgId)
    const theirs = await open(Q.events(q1.id), colleague.tokens[0] as string)
    expect(theirs.status).toBe(200)
    // a closed stream frees its place
    await held[0]?.close()
    let again = await open(Q.events(q1.id), first)
    for (let i = 0; again.status !== 200 && i < 40; i++) {
      await sleep(25)
      again = await open(Q.events(q1.id), first)
    }
    expect(again.status).toBe(200)
    for (const stream of [...held, sixth, theirs, again]) await stream.close()
  })

  it('a flood of streams by one person is refused past the cap while another organisation is answered', async () => {
    const admin = await member(ctx)
    const q = await questionnaire(ctx, admin.token, ['Do you encrypt backups?'])
    const flooder = await viewer(admin.orgId)
    const token = flooder.tokens[0] as string
    const stranger = await member(ctx)
    const opened: Awaited<ReturnType<typeof open>>[] = []
    const statuses: number[] = []
    const theirs: number[] = []
    for (let wave = 0; wave < 6; wave++) {
      const streams = await Promise.all(
        Array.from({ length: 50 }, () => open(Q.events(q.id), token)),
      )
      for (const stream of streams) {
        statuses.push(stream.status)
        if (stream.status === 200) opened.push(stream)
      }
      const calls = await Promise.all(
        Array.from({ length: 5 }, () => get(ctx, Q.list, stranger.token)),
      )
      theirs.push(...calls.map((call) => call.status))
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(297)
    expect(theirs.every((status) => status === 200)).toBe(true)
    for (const stream of opened) await stream.close()
  })
})

describe('a session that ends closes its streams at once (issue 37, S3)', () => {
  it('signing out closes the questionnaire and notification streams within a second, not at the next check', async () => {
    const admin = await member(ctx)
    const q = await questionnaire(ctx, admin.token, ['Do you encrypt backups?'])
    const person = await viewer(admin.orgId)
    const token = person.tokens[0] as string
    const events = await open(Q.events(q.id), token)
    const bell = await open(N.stream, token)
    await events.next((e) => e.event === 'presence')
    await bell.next((e) => e.event === 'unread')
    const before = Date.now()
    const out = await ctx.app.request(apiPath(paths.auth.logout), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(out.status).toBe(200)
    await Promise.race([Promise.all([events.finished, bell.finished]), sleep(3_000)])
    expect(events.ended() && bell.ended()).toBe(true)
    expect(Math.max(events.endedAt() ?? 0, bell.endedAt() ?? 0) - before).toBeLessThan(1_000)
  })

  it('removing a person closes their streams at once', async () => {
    const admin = await insertUser(ctx.database, { role: 'admin' })
    const adminToken = (await signIn(ctx, admin.email)).access
    const q = await questionnaire(ctx, adminToken, ['Do you encrypt backups?'])
    const person = await viewer(admin.orgId)
    const stream = await open(Q.events(q.id), person.tokens[0] as string)
    await stream.next((e) => e.event === 'presence')
    const removed = await post(ctx, paths.users.remove(person.user.id), {}, adminToken)
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300)
    await Promise.race([stream.finished, sleep(3_000)])
    expect(stream.ended()).toBe(true)
  })
})

describe('after the event listener reconnects, open streams resynchronise (issue 37, S7)', () => {
  it('sends resync, and changes reach the stream again', async () => {
    const admin = await member(ctx)
    const q = await questionnaire(ctx, admin.token, ['Do you encrypt backups?'])
    const rows = await rowsOf(ctx, admin.token, q.id)
    const person = await viewer(admin.orgId)
    const stream = await open(Q.events(q.id), person.tokens[0] as string)
    await stream.next((e) => e.event === 'presence')
    const from = stream.events.length
    const killed = await ctx.database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = $1`,
      [`quire-events:${process.pid}`],
    )
    expect(killed.rowCount).toBe(1)
    await stream.next((e) => e.event === 'resync', from, 10_000)
    const edited = await post(
      ctx,
      Q.answer.edit((rows[0] as Body).answer.id),
      { text: 'Yes, encrypted nightly.' },
      admin.token,
    )
    expect(edited.status).toBe(200)
    await stream.next((e) => e.event === 'change', from)
    await stream.close()
  })
})

describe('the database going away under a request (issue 37, S1, S6)', () => {
  it('a wait for a busy pool answers 503 for that request only; the next call works', async () => {
    const admin = await member(ctx)
    // every connection of the app's pool (5 in the tests) taken and held
    const held = await Promise.all(Array.from({ length: 5 }, () => ctx.database.pool.connect()))
    const busy = await get(ctx, Q.list, admin.token)
    for (const client of held) client.release()
    expect(busy.status).toBe(503)
    expect(busy.body).toMatchObject({ error: ERROR_TEXTS.busy })
    expect(busy.headers.get('retry-after')).toBe('1')
    // the server did not decide the database was gone
    const next = await get(ctx, Q.list, admin.token)
    expect(next.status).toBe(200)
    expect((await get(ctx, paths.health)).body.status).toBe('ok')
  }, 20_000)

  it('a connection held between statements and terminated by the database does not crash the process', async () => {
    const outcome = inTransaction(ctx.database.pool, async (client) => {
      await client.query('select 1')
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
      const admin = await ctx.database.pool.connect()
      try {
        await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid])
      } finally {
        admin.release()
      }
      // the connection is gone while the transaction does other work
      await sleep(300)
      await client.query('select 1')
    })
    await expect(outcome).rejects.toThrow(/terminat|connection error/i)
    // the pool serves again with a fresh connection
    const { rows } = await ctx.database.pool.query<{ one: number }>('select 1 as one')
    expect(rows[0]?.one).toBe(1)
  })
})
