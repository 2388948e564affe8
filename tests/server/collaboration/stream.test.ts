import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { type Body, member, questionnaire, rowsOf } from '../answering/helpers.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

/** A questionnaire's event stream, read event by event. */
async function open(questionnaireId: number, token: string) {
  const abort = new AbortController()
  const res = await ctx.app.request(apiPath(Q.events(questionnaireId)), {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  })
  const events: { event: string; data: Body }[] = []
  let buffer = ''
  let ended = false
  const reader = res.body?.getReader()
  const pump = (async () => {
    if (!reader || res.status !== 200) return
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += decoder.decode(value, { stream: true })
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
          cut = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // aborted
    }
    ended = true
  })()
  /** The first event from `from` on that matches. */
  async function next(match: (event: { event: string; data: Body }) => boolean, from = 0) {
    for (let i = 0; i < 200; i++) {
      const found = events.slice(from).find(match)
      if (found) return found
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`no such event; got ${JSON.stringify(events)}`)
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    next,
    ended: () => ended,
    close: async () => {
      abort.abort()
      await reader?.cancel().catch(() => {})
      await pump
    },
  }
}

const viewersOf = (event: { data: Body }) =>
  (event.data.viewers as Body[]).map((viewer) => viewer.id).sort()

describe('the live stream of a questionnaire (issue 29)', () => {
  it('shows who is here and what others change, scoped to the organisation', async () => {
    const admin = await member(ctx)
    const fixture = await insertUser(ctx.database, { role: 'contributor', orgId: admin.orgId })
    const contributor = { id: fixture.user.id, token: (await signIn(ctx, fixture.email)).access }
    const q = await questionnaire(ctx, admin.token, [
      'Do you encrypt backups?',
      'Do you log access?',
    ])
    const rows = await rowsOf(ctx, admin.token, q.id)

    const watching = await open(q.id, admin.token)
    expect(watching.status).toBe(200)
    expect(watching.contentType).toContain('text/event-stream')
    const alone = await watching.next((e) => e.event === 'presence')
    expect(viewersOf(alone)).toEqual([String(admin.user.id)])

    const other = await open(q.id, contributor.token)
    const both = await watching.next((e) => e.event === 'presence' && e.data.viewers.length === 2)
    expect(viewersOf(both)).toEqual([String(admin.user.id), String(contributor.id)].sort())

    // the contributor's edit reaches the admin's stream, naming the question and who
    const from = watching.events.length
    const first = rows[0] as Body
    const edited = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Yes, nightly and encrypted.' },
      contributor.token,
    )
    expect(edited.status).toBe(200)
    const change = await watching.next((e) => e.event === 'change', from)
    expect(change.data).toMatchObject({
      kind: 'answers',
      question_ids: [first.id],
      by: contributor.id,
    })
    // an assignment too
    await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, question_ids: [first.id] },
      admin.token,
    )
    const assigned = await watching.next(
      (e) => e.event === 'change' && e.data.kind === 'assignments',
      from,
    )
    expect(assigned.data.question_ids).toEqual([first.id])

    // another organisation neither opens the stream nor hears anything of it
    const stranger = await member(ctx)
    const refused = await open(q.id, stranger.token)
    expect(refused.status).toBe(404)
    const theirs = await questionnaire(ctx, stranger.token, ['Do you encrypt backups?'])
    const theirRows = await rowsOf(ctx, stranger.token, theirs.id)
    const before = watching.events.length
    await post(ctx, Q.answer.edit(theirRows[0].answer.id), { text: 'Theirs.' }, stranger.token)
    await new Promise((r) => setTimeout(r, 300))
    expect(watching.events.slice(before)).toEqual([])

    // the contributor leaves: the admin sees it
    await other.close()
    const left = await watching.next(
      (e) => e.event === 'presence' && e.data.viewers.length === 1,
      before,
    )
    expect(viewersOf(left)).toEqual([String(admin.user.id)])
    await watching.close()
    expect((await get(ctx, Q.get(q.id), admin.token)).status).toBe(200)
  })

  it('needs a session', async () => {
    const res = await ctx.app.request(apiPath(Q.events(1)))
    expect(res.status).toBe(401)
  })
})
