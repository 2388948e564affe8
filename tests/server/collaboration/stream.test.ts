import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { readEvents } from '../../support/sse.ts'
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
  return readEvents(res, abort)
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
