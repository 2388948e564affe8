import { describe, expect, it } from 'vitest'
import { COLLABORATION_TEXTS, STALE_EDIT } from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { groupOf } from '../../../server/modules/collaboration/assignments.ts'
import { exported } from '../../support/exports.ts'
import { type Body, member, questionnaire, rowsOf } from '../answering/helpers.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

async function person(orgId: number, role: Role, status: 'active' | 'removed' = 'active') {
  const fixture = await insertUser(ctx.database, { role, orgId, status })
  if (status !== 'active') return { ...fixture, id: fixture.user.id, token: '' }
  const session = await signIn(ctx, fixture.email)
  return { ...fixture, id: fixture.user.id, token: session.access }
}

/** An organisation with an admin who owns a three-question questionnaire, and its team. */
async function team() {
  const admin = await member(ctx)
  const orgId = admin.orgId
  const [approver, contributor, viewer] = await Promise.all([
    person(orgId, 'approver'),
    person(orgId, 'contributor'),
    person(orgId, 'viewer'),
  ])
  const q = await questionnaire(ctx, admin.token, [
    'Do you encrypt data at rest?',
    'Do you run background checks on staff?',
    'Do you have a disaster recovery plan?',
  ])
  const rows = await rowsOf(ctx, admin.token, q.id)
  return { admin, approver, contributor, viewer, orgId, q, rows }
}

const detail = (res: { body: Body }) => res.body.detail?.[0]?.message ?? res.body.error

describe('a questionnaire as a piece of work (issue 29)', () => {
  it('sets owner, customer, requester, due date and status; lists and filters by them', async () => {
    const { admin, contributor, viewer, q } = await team()
    const set = await post(
      ctx,
      Q.work(q.id),
      {
        owner_id: contributor.id,
        customer_name: 'Acme University',
        requester: 'Jane Roe, procurement',
        due_date: '2020-01-15',
        work_status: 'in_review',
      },
      admin.token,
    )
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body).toMatchObject({
      owner: { id: String(contributor.id) },
      customer: { name: 'Acme University' },
      requester: 'Jane Roe, procurement',
      due_date: '2020-01-15',
      work_status: 'in_review',
      overdue: true,
    })
    // the same customer by name is the same customer
    const again = await post(ctx, Q.work(q.id), { customer_name: 'acme university' }, admin.token)
    expect(again.body.customer.id).toBe(set.body.customer.id)
    const customers = await get(ctx, Q.customers, admin.token)
    expect(customers.body.results).toHaveLength(1)
    const page = await get(ctx, Q.customer(set.body.customer.id), viewer.token)
    expect(page.status).toBe(200)
    expect(page.body.questionnaires).toMatchObject([{ id: q.id, work_status: 'in_review' }])
    expect(page.body.questionnaires[0].year).toBe(new Date().getUTCFullYear())

    const mine = await get(ctx, `${Q.list}?owner=me&overdue=true`, contributor.token)
    expect(mine.body.results.map((row: Body) => row.id)).toEqual([q.id])
    const others = await get(ctx, `${Q.list}?owner=me`, admin.token)
    expect(others.body.results).toHaveLength(0)
    const byStatus = await get(ctx, `${Q.list}?work_status=sent`, admin.token)
    expect(byStatus.body.results).toHaveLength(0)

    // sent: no longer overdue
    const sent = await post(ctx, Q.work(q.id), { work_status: 'sent' }, admin.token)
    expect(sent.body.overdue).toBe(false)

    // viewers change nothing; bad values are refused in plain words
    expect((await post(ctx, Q.work(q.id), { requester: 'x' }, viewer.token)).status).toBe(403)
    const badDate = await post(ctx, Q.work(q.id), { due_date: '15/01/2020' }, admin.token)
    expect(badDate.status).toBe(400)
    expect(detail(badDate)).toBe('A date is written YYYY-MM-DD')
    const badOwner = await post(ctx, Q.work(q.id), { owner_id: viewer.id }, admin.token)
    expect(badOwner.status).toBe(400)
    expect(detail(badOwner)).toBe(COLLABORATION_TEXTS.ownerNotAllowed)
    const badStatus = await post(ctx, Q.work(q.id), { work_status: 'done' }, admin.token)
    expect(badStatus.status).toBe(400)

    // the activity says what happened, by whom
    const activity = await get(ctx, Q.activity(q.id), viewer.token)
    expect(activity.body.results[0]).toMatchObject({ kind: 'work', summary: 'Marked it sent' })
  })

  it('lists the organisation’s active people for every member, and only them', async () => {
    const { admin, contributor, viewer } = await team()
    await person(admin.orgId, 'approver', 'removed')
    const stranger = await member(ctx)
    const people = await get(ctx, Q.people, viewer.token)
    expect(people.status).toBe(200)
    const ids = people.body.results.map((p: Body) => p.id)
    expect(ids).toHaveLength(4)
    expect(ids).not.toContain(stranger.user.id)
    expect(people.body.results.find((p: Body) => p.id === viewer.id).assignable).toBe(false)
    expect(people.body.results.find((p: Body) => p.id === contributor.id).assignable).toBe(true)
    expect((await ctx.app.request('/api/v1/filler/people/')).status).toBe(401)
  })

  it('shows the team its overdue questionnaires and what happened lately, its own only', async () => {
    const { admin, viewer, q } = await team()
    const later = await questionnaire(ctx, admin.token, ['Do you rotate keys?'])
    await post(
      ctx,
      Q.work(q.id),
      { due_date: '2020-02-01', customer_name: 'Initrode' },
      admin.token,
    )
    await post(ctx, Q.work(later.id), { due_date: '2999-01-01' }, admin.token)
    const stranger = await member(ctx)
    const theirs = await questionnaire(ctx, stranger.token, ['Do you patch?'])
    await post(ctx, Q.work(theirs.id), { due_date: '2020-01-01' }, stranger.token)
    const overview = await get(ctx, Q.team, viewer.token)
    expect(overview.status).toBe(200)
    expect(overview.body.overdue).toMatchObject([
      { id: q.id, due_date: '2020-02-01', customer: 'Initrode', questions: 3, approved: 0 },
    ])
    expect(overview.body.activity[0]).toMatchObject({
      kind: 'work',
      questionnaire: { id: later.id },
    })
    expect(overview.body.activity.map((entry: Body) => entry.questionnaire.id)).not.toContain(
      theirs.id,
    )
    // issue 30: home's dashboard. In progress: the overdue first, then by due date; its own only
    expect(overview.body.in_progress.map((item: Body) => item.id)).toEqual([q.id, later.id])
    expect(overview.body.in_progress_count).toBe(2)
    expect(overview.body.in_progress[1]).toMatchObject({ overdue: false, due_date: '2999-01-01' })
    // nothing drafted yet: nothing waits for review; the first steps taken are the questionnaires
    expect(overview.body.review).toEqual({ ready: 0, drafts: 0 })
    expect(overview.body.first_steps).toEqual({
      documents: false,
      library: false,
      questionnaire: true,
      chat: false,
    })
  })

  it('counts drafted answers waiting for review and leaves sent questionnaires out (issue 30)', async () => {
    const { admin, viewer, q, rows } = await team()
    const first = rows[0] as Body
    const edit = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Yes: AES-256 at rest.', version: first.answer.version },
      admin.token,
    )
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    const overview = await get(ctx, Q.team, viewer.token)
    expect(overview.body.review).toEqual({ ready: 0, drafts: 1 })
    expect(overview.body.in_progress[0]).toMatchObject({ id: q.id, answered: 1, approved: 0 })
    await post(ctx, Q.work(q.id), { work_status: 'sent' }, admin.token)
    const after = await get(ctx, Q.team, viewer.token)
    expect(after.body.review).toEqual({ ready: 0, drafts: 0 })
    expect(after.body.in_progress_count).toBe(0)
  })

  it('keeps customers apart: another organisation gets 404', async () => {
    const { admin, q } = await team()
    const stranger = await member(ctx)
    const created = await post(
      ctx,
      Q.customers,
      { name: 'Globex', domain: 'globex.com' },
      admin.token,
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const duplicate = await post(ctx, Q.customers, { name: 'GLOBEX' }, admin.token)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toBe(COLLABORATION_TEXTS.customerExists)
    const badDomain = await post(
      ctx,
      Q.customers,
      { name: 'Initech', domain: 'not a domain' },
      admin.token,
    )
    expect(badDomain.status).toBe(400)
    const id = created.body.customer.id
    expect((await get(ctx, Q.customer(id), stranger.token)).status).toBe(404)
    expect((await post(ctx, Q.work(q.id), { requester: 'x' }, stranger.token)).status).toBe(404)
    expect((await post(ctx, Q.work(q.id), { customer_id: id }, admin.token)).status).toBe(200)
    const theirs = await questionnaire(ctx, stranger.token, ['Do you patch?'])
    expect((await post(ctx, Q.work(theirs.id), { customer_id: id }, stranger.token)).status).toBe(
      404,
    )
    expect((await get(ctx, Q.activity(q.id), stranger.token)).status).toBe(404)
  })
})

describe('assignments (issue 29)', () => {
  it('assigns by question, tab and filter; unassigns; tells the rows and my work', async () => {
    const { admin, contributor, approver, viewer, q, rows } = await team()
    const [first, second, third] = rows as Body[]
    const one = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, question_ids: [first.id], due_date: '2030-01-10' },
      admin.token,
    )
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    expect(one.body).toEqual({ assigned: 1 })
    const tab = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: approver.id, tab_id: first.tab_id },
      contributor.token,
    )
    expect(tab.body).toEqual({ assigned: 3 })
    // every question has no answer yet: the filter matches all three
    const filtered = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, filter: 'unanswered' },
      admin.token,
    )
    expect(filtered.body).toEqual({ assigned: 3 })
    const after = await rowsOf(ctx, admin.token, q.id)
    expect(after.map((row: Body) => row.assignment.assignee?.id)).toEqual(
      Array(3).fill(String(contributor.id)),
    )
    expect(after[0].assignment.review_state).toBe('assigned')

    const work = await get(ctx, paths.me.assignments, contributor.token)
    expect(work.status).toBe(200)
    expect(work.body.results.map((item: Body) => item.question_id).sort()).toEqual(
      [first.id, second.id, third.id].sort(),
    )
    expect(work.body.counts).toEqual({ overdue: 0, this_week: 0, later: 0, no_date: 3 })
    expect((await get(ctx, paths.me.assignments, approver.token)).body.results).toHaveLength(0)

    const off = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: null, question_ids: [third.id] },
      admin.token,
    )
    expect(off.body).toEqual({ assigned: 1 })
    expect((await rowsOf(ctx, admin.token, q.id))[2].assignment).toMatchObject({
      assignee: null,
      review_state: 'unassigned',
    })

    // viewers are neither assigners nor assignees; removed people are not assignees
    expect(
      (await post(ctx, Q.assign(q.id), { assignee_id: contributor.id }, viewer.token)).status,
    ).toBe(403)
    const toViewer = await post(ctx, Q.assign(q.id), { assignee_id: viewer.id }, admin.token)
    expect(toViewer.status).toBe(400)
    expect(toViewer.body.error).toBe(COLLABORATION_TEXTS.assigneeNotAllowed)
    const gone = await person(admin.orgId, 'contributor', 'removed')
    expect((await post(ctx, Q.assign(q.id), { assignee_id: gone.id }, admin.token)).status).toBe(
      400,
    )
    const activity = await get(ctx, Q.activity(q.id), admin.token)
    expect(activity.body.results.map((row: Body) => row.kind)).toContain('assigned')
    // the assignee was told, in the app (and by email: tests/server/collaboration/notifications)
    const told = await get(ctx, paths.notifications.list, contributor.token)
    expect(told.body.results[0]).toMatchObject({ kind: 'assigned', questionnaire_id: q.id })
    // exporting is part of the activity too
    const out = await exported(ctx, viewer.token, { questionnaire_id: q.id })
    expect(out.status, JSON.stringify(out.body)).toBe(202)
    expect(out.run?.status).toBe('done')
    const latest = await get(ctx, Q.activity(q.id), admin.token)
    expect(latest.body.results[0]).toMatchObject({
      kind: 'exported',
      by: { id: String(viewer.id) },
    })
  })

  it('refuses a due date after the questionnaire’s and another organisation’s questionnaire', async () => {
    const { admin, contributor, q } = await team()
    await post(ctx, Q.work(q.id), { due_date: '2030-01-10' }, admin.token)
    const late = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, due_date: '2030-02-01' },
      admin.token,
    )
    expect(late.status).toBe(400)
    expect(late.body.error).toBe(COLLABORATION_TEXTS.dueAfterQuestionnaire)
    expect((await rowsOf(ctx, admin.token, q.id))[0].assignment.assignee).toBeNull()
    const stranger = await member(ctx)
    expect((await post(ctx, Q.assign(q.id), { assignee_id: null }, stranger.token)).status).toBe(
      404,
    )
    const theirs = await person(stranger.orgId, 'contributor')
    expect((await post(ctx, Q.assign(q.id), { assignee_id: theirs.id }, admin.token)).status).toBe(
      400,
    )
  })

  it('groups my work by due date', () => {
    const today = new Date('2026-11-27T10:00:00Z')
    expect(groupOf('2026-11-26', today)).toBe('overdue')
    expect(groupOf('2026-11-27', today)).toBe('this_week')
    expect(groupOf('2026-12-04', today)).toBe('this_week')
    expect(groupOf('2026-12-05', today)).toBe('later')
    expect(groupOf(null, today)).toBe('no_date')
  })
})

describe('review steps and edits against a stale version (issue 29)', () => {
  it('runs assigned → answered → ready → changes requested → answered → approved', async () => {
    const { admin, contributor, approver, viewer, q, rows } = await team()
    const first = rows[0] as Body
    await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, question_ids: [first.id] },
      admin.token,
    )
    const notReady = await post(ctx, Q.review(first.id), { action: 'ready' }, contributor.token)
    expect(notReady.status).toBe(400)
    expect(notReady.body.error).toBe(COLLABORATION_TEXTS.reviewNotReady)

    const edited = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Yes, AES-256.', choice: 'Yes', version: first.answer.version },
      contributor.token,
    )
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    const row = edited.body.questions[0]
    expect(row.assignment.review_state).toBe('answered')
    expect(row.answer.version).toBe(first.answer.version + 1)
    expect(row.answer.updated_by.id).toBe(String(contributor.id))

    const ready = await post(ctx, Q.review(first.id), { action: 'ready' }, contributor.token)
    expect(ready.status).toBe(200)
    expect(ready.body.questions[0].assignment.review_state).toBe('ready')
    // contributors do not approve or send back; viewers do nothing
    expect(
      (await post(ctx, Q.review(first.id), { action: 'approve' }, contributor.token)).status,
    ).toBe(403)
    expect((await post(ctx, Q.review(first.id), { action: 'ready' }, viewer.token)).status).toBe(
      403,
    )
    const bare = await post(ctx, Q.review(first.id), { action: 'request_changes' }, approver.token)
    expect(bare.status).toBe(400)
    expect(bare.body.error).toBe(COLLABORATION_TEXTS.changesNeedComment)
    const back = await post(
      ctx,
      Q.review(first.id),
      { action: 'request_changes', comment: 'Name the key management service.' },
      approver.token,
    )
    expect(back.status).toBe(200)
    expect(back.body.questions[0].assignment).toMatchObject({
      review_state: 'changes_requested',
      comments: 1,
    })
    const again = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Yes, AES-256 with keys in AWS KMS.', version: row.answer.version },
      contributor.token,
    )
    expect(again.body.questions[0].assignment.review_state).toBe('answered')
    const approved = await post(ctx, Q.review(first.id), { action: 'approve' }, approver.token)
    expect(approved.status).toBe(200)
    expect(approved.body.questions[0].answer.status).toBe('approved')
    expect(approved.body.questions[0].assignment.review_state).toBe('approved')
    // approved work leaves my list
    expect((await get(ctx, paths.me.assignments, contributor.token)).body.results).toHaveLength(0)

    const kinds = (await get(ctx, Q.activity(q.id), admin.token)).body.results.map(
      (entry: Body) => entry.kind,
    )
    expect(kinds).toEqual(
      expect.arrayContaining(['assigned', 'ready', 'changes_requested', 'approved']),
    )
    const stranger = await member(ctx)
    expect(
      (await post(ctx, Q.review(first.id), { action: 'approve' }, stranger.token)).status,
    ).toBe(404)
  })

  it('refuses an edit made against a version someone changed since, with the current answer', async () => {
    const { admin, contributor, q, rows } = await team()
    const first = rows[0] as Body
    const version = first.answer.version
    const mine = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Theirs: yes, at rest and in transit.', version },
      admin.token,
    )
    expect(mine.status).toBe(200)
    const stale = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Mine: yes.', version },
      contributor.token,
    )
    expect(stale.status).toBe(409)
    expect(stale.body.code).toBe(STALE_EDIT)
    expect(stale.body.error).toBe(COLLABORATION_TEXTS.staleEdit)
    expect(stale.body.detail.current).toMatchObject({
      id: first.answer.id,
      text: 'Theirs: yes, at rest and in transit.',
      version: version + 1,
    })
    // nothing was overwritten
    expect((await rowsOf(ctx, admin.token, q.id))[0].answer.text).toBe(
      'Theirs: yes, at rest and in transit.',
    )
    // merged against the current version, it saves
    const merged = await post(
      ctx,
      Q.answer.edit(first.answer.id),
      { text: 'Yes, at rest and in transit (AES-256).', version: version + 1 },
      contributor.token,
    )
    expect(merged.status).toBe(200)
    // an edit without a version is taken as before
    expect(
      (await post(ctx, Q.answer.edit(first.answer.id), { text: 'Yes.' }, admin.token)).status,
    ).toBe(200)
  })
})
