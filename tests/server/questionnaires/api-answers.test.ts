import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { makeQuestionnaireXlsx } from '../../fixtures/questionnaires.ts'
import { exported } from '../../support/exports.ts'
import { call, get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, questionnaireSteps } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })
const { member, upload, analysed, answersOf } = questionnaireSteps(ctx)

// Answers, their history and undo, the license's limits, tenancy and deletion, and the answers
// list under load.

describe('answers, history and undo', () => {
  it('edits, approves, un-approves and undoes one operation at a time', async () => {
    const user = await member()
    const q = await analysed(user.token, 'q.xlsx', await makeQuestionnaireXlsx())
    const start = await answersOf(user.token, q.id)
    const [first] = start.questions as Body[]
    const answerId = first.answer.id
    // issue 30: nothing to undo yet, and the questionnaire says so (Undo is off)
    expect(start.questionnaire.can_undo).toBe(false)

    const bad = await post(ctx, Q.answer.edit(answerId), { choice: 'Maybe' }, user.token)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('Maybe is not one of the values this answer cell allows')

    const emptyApprove = await post(ctx, Q.answer.approve(answerId), {}, user.token)
    expect(emptyApprove.status).toBe(400)
    expect(emptyApprove.body.error).toBe('Write an answer before approving it')

    const edited = await post(
      ctx,
      Q.answer.edit(answerId),
      { text: 'All customer data is encrypted with AES-256.', choice: 'Yes' },
      user.token,
    )
    expect(edited.status).toBe(200)
    expect(edited.body.questions[0].answer).toMatchObject({ status: 'edited', choice: 'Yes' })
    expect(edited.body.questionnaire).toMatchObject({ answered: 1, approved: 0, can_undo: true })
    expect(edited.body.operation).toMatchObject({
      kind: 'edit',
      summary: 'Edited the answer to DATA-01',
      can_undo: true,
    })

    const approved = await post(
      ctx,
      Q.answer.approve(answerId),
      { confirm_incomplete: true },
      user.token,
    )
    expect(approved.body.questions[0].answer.status).toBe('approved')
    expect(approved.body.questionnaire.approved).toBe(1)
    expect((await answersOf(user.token, q.id, '?filter=approved')).questions).toHaveLength(1)
    expect((await answersOf(user.token, q.id, '?filter=unanswered')).questions).toHaveLength(7)

    const unapproved = await post(ctx, Q.answer.unApprove(answerId), {}, user.token)
    expect(unapproved.body.questions[0].answer.status).toBe('edited')
    expect((await answersOf(user.token, q.id, '?filter=needs_review')).questions).toHaveLength(1)

    const history = (await get(ctx, Q.operations(q.id), user.token)).body.operations as Body[]
    expect(history.map((o) => [o.kind, o.can_undo])).toEqual([
      ['un_approve', true],
      ['approve', false],
      ['edit', false],
    ])
    expect(history[0].by.email).toBe(user.email)

    const undo1 = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(undo1.status).toBe(200)
    expect(undo1.body.questions[0].answer.status).toBe('approved')
    await post(ctx, Q.undo(q.id), {}, user.token)
    const undo3 = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(undo3.body.questions[0].answer).toMatchObject({
      status: 'pending',
      text: '',
      choice: null,
    })
    expect(undo3.body.questionnaire.answered).toBe(0)
    expect(undo3.body.questionnaire.can_undo).toBe(false)
    const nothing = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(nothing.status).toBe(409)
    expect(nothing.body.error).toBe('There is nothing to undo')
    const after = (await get(ctx, Q.operations(q.id), user.token)).body.operations as Body[]
    expect(after.every((o) => o.undone)).toBe(true)
  })

  it('chooses between candidates and deletes a question, both undoable', async () => {
    const user = await member()
    const q = await analysed(user.token, 'q.xlsx', await makeQuestionnaireXlsx())
    const [first] = (await answersOf(user.token, q.id)).questions as Body[]
    // a second candidate, as an engine would leave it
    const { rows } = await ctx.database.pool.query<{ id: string }>(
      `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, status, confidence)
       values ($1, $2, $3, 1, 'No, not yet.', 'No', 'generated', 0.4) returning id`,
      [user.orgId, q.id, first.id],
    )
    // as every writer of answers does, the questionnaire's revision moves with them
    await ctx.database.pool.query(
      'update questionnaires set revision = revision + 1, updated_at = now() where id = $1',
      [q.id],
    )
    const candidateId = Number(rows[0]?.id)
    const listed = (await answersOf(user.token, q.id)).questions[0]
    expect(listed.candidates.map((c: Body) => c.rank)).toEqual([0, 1])
    expect(listed.candidates[1]).toMatchObject({ band: 'low', confidence: 0.4 })

    const chosen = await post(ctx, Q.selectAnswer(first.id, candidateId), {}, user.token)
    expect(chosen.status).toBe(200)
    expect(chosen.body.questions[0].answer).toMatchObject({ id: candidateId, choice: 'No' })
    expect(chosen.body.questionnaire.answered).toBe(1)
    const wrong = await post(ctx, Q.selectAnswer(first.id + 1, candidateId), {}, user.token)
    expect(wrong.status).toBe(404)

    const deleted = await post(ctx, Q.deleteQuestion(first.id), {}, user.token)
    expect(deleted.status).toBe(200)
    expect(deleted.body.questionnaire).toMatchObject({ questions: 7, answered: 0 })
    expect((await post(ctx, Q.answer.edit(candidateId), { text: 'x' }, user.token)).status).toBe(
      404,
    )

    const restored = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(restored.body.questionnaire).toMatchObject({ questions: 8, answered: 1 })
    const unchosen = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(unchosen.body.questions[0].answer.rank).toBe(0)
  })

  it("enforces the license's answers limit in the spec's words, and keeps the count per organisation", async () => {
    const user = await member()
    await ctx.database.pool.query('update licenses set max_answers = 2 where org_id = $1', [
      user.orgId,
    ])
    const q = await analysed(user.token, 'q.xlsx', await makeQuestionnaireXlsx())
    const rows = (await answersOf(user.token, q.id)).questions as Body[]
    for (const row of rows.slice(0, 2)) {
      const ok = await post(ctx, Q.answer.edit(row.answer.id), { choice: 'Yes' }, user.token)
      expect(ok.status).toBe(200)
    }
    const third = await post(ctx, Q.answer.edit(rows[2].answer.id), { choice: 'No' }, user.token)
    expect(third.status).toBe(403)
    expect(third.body).toMatchObject({
      error: 'Your license limits the number of answers to 2.',
      code: 'license_limit',
    })
    // changing an answer that already counts is fine
    expect(
      (await post(ctx, Q.answer.edit(rows[0].answer.id), { choice: 'No' }, user.token)).status,
    ).toBe(200)
    // parallel edits at the limit: at most one succeeds (TI6)
    await post(ctx, Q.answer.edit(rows[1].answer.id), { choice: null }, user.token)
    const results = await Promise.all(
      rows
        .slice(2, 8)
        .map((row) => post(ctx, Q.answer.edit(row.answer.id), { choice: 'Yes' }, user.token)),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 403)).toHaveLength(5)
  })

  it('enforces max_questionnaire (TI6)', async () => {
    const user = await member()
    await ctx.database.pool.query('update licenses set max_questionnaire = 1 where org_id = $1', [
      user.orgId,
    ])
    const data = await makeQuestionnaireXlsx()
    const results = await Promise.all([1, 2, 3].map((n) => upload(user.token, `q${n}.xlsx`, data)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    const refused = results.find((r) => r.status === 403)
    expect(refused?.body.error).toBe('Your license limits the number of questionnaires to 1.')
  })
})

describe('tenancy and deletion', () => {
  it("answers another organisation's ids with 404 on every call", async () => {
    const owner = await member()
    const stranger = await member()
    const q = await analysed(owner.token, 'q.xlsx', await makeQuestionnaireXlsx())
    const [row] = (await answersOf(owner.token, q.id)).questions as Body[]
    const out = await exported(ctx, owner.token, { questionnaire_id: q.id })
    const t = stranger.token
    const calls = [
      get(ctx, Q.get(q.id), t),
      get(ctx, Q.answers(q.id), t),
      get(ctx, Q.answersByTab(q.id), t),
      get(ctx, Q.tabs(q.id), t),
      get(ctx, Q.download(q.id), t),
      get(ctx, Q.operations(q.id), t),
      post(ctx, Q.undo(q.id), {}, t),
      post(ctx, Q.reAnalyze(q.id), {}, t),
      post(ctx, Q.answer.edit(row.answer.id), { text: 'x' }, t),
      post(ctx, Q.answer.approve(row.answer.id), { confirm_incomplete: true }, t),
      post(ctx, Q.answer.unApprove(row.answer.id), {}, t),
      post(ctx, Q.selectAnswer(row.id, row.answer.id), {}, t),
      post(ctx, Q.deleteQuestion(row.id), {}, t),
      post(ctx, Q.exportOriginal, { questionnaire_id: q.id }, t),
      post(ctx, Q.exportBasic, { questionnaire_id: q.id }, t),
      post(ctx, Q.checkFilledFile, { questionnaire_id: q.id }, t),
      get(ctx, `${Q.downloadFilledFile}?questionnaire_id=${q.id}`, t),
      get(ctx, Q.filledFileDownload(out.filled_file?.id as number), t),
      // another organisation's export run
      get(ctx, Q.exportRun(out.run?.id as number), t),
      get(ctx, Q.delete(q.id), t),
    ]
    for (const res of await Promise.all(calls))
      expect(res.status, JSON.stringify(res.body)).toBe(404)
    expect((await post(ctx, Q.batchDelete, { file_ids: [q.id] }, t)).body).toEqual({ deleted: 0 })
    expect((await get(ctx, Q.list, t)).body.count).toBe(0)
    // the owner still has everything
    expect((await get(ctx, Q.get(q.id), owner.token)).body.questions).toBe(8)
  })

  it('deletes questionnaires with their filled files, alone or in a batch', async () => {
    const user = await member()
    const data = await makeQuestionnaireXlsx()
    const a = await analysed(user.token, 'a.xlsx', data)
    const b = await analysed(user.token, 'b.xlsx', data)
    const c = await analysed(user.token, 'c.xlsx', data)
    await exported(ctx, user.token, { questionnaire_id: a.id, format: 'xlsx' })
    const list = (await get(ctx, Q.list, user.token)).body
    expect(list.results.map((r: Body) => r.name)).toEqual(['c.xlsx', 'b.xlsx', 'a.xlsx'])
    expect((await call(ctx, 'DELETE', Q.delete(c.id), { token: user.token })).body).toEqual({
      deleted: 1,
    })
    expect((await post(ctx, Q.batchDelete, { file_ids: [a.id, b.id] }, user.token)).body).toEqual({
      deleted: 2,
    })
    const { rows } = await ctx.database.pool.query('select 1 from filled_files where org_id = $1', [
      user.orgId,
    ])
    expect(rows).toHaveLength(0)
    // and their export runs (issue 37)
    const runs = await ctx.database.pool.query(
      'select 1 from questionnaire_exports where org_id = $1',
      [user.orgId],
    )
    expect(runs.rows).toHaveLength(0)
    expect((await post(ctx, Q.batchDelete, { file_ids: [] }, user.token)).status).toBe(400)
  })
})

describe('the answers list under load (issue 14, LD1)', () => {
  it('is kept built by revision: a change shows at once, an unchanged list answers 304 to its ETag, and another organisation gets 404', async () => {
    const user = await member()
    const q = await analysed(
      user.token,
      'Cached.xlsx',
      await makeQuestionnaireXlsx({ custom: true }),
    )
    const request = (headers: Record<string, string> = {}, token = user.token) =>
      ctx.app.request(apiPath(Q.answers(q.id)), {
        headers: { authorization: `Bearer ${token}`, ...headers },
      })
    const zipped = await request({ 'accept-encoding': 'gzip' })
    expect(zipped.status).toBe(200)
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    const first = await request()
    expect(first.headers.get('content-encoding')).toBeNull()
    const etag = first.headers.get('etag') as string
    expect(zipped.headers.get('etag')).toBe(etag)
    expect(etag).toMatch(/^".+"$/)
    const rows = ((await first.json()) as Body).questions as Body[]
    expect((await request({ 'if-none-match': etag })).status).toBe(304)
    // every kind of change moves the key: edit, approve, undo, delete a question
    const steps: [string, () => Promise<unknown>, (body: Body) => void][] = [
      [
        'edit',
        () => post(ctx, Q.answer.edit(rows[0].answer.id), { text: 'Changed once.' }, user.token),
        (body) => expect(body.questions[0].answer.text).toBe('Changed once.'),
      ],
      [
        'approve',
        () =>
          post(ctx, Q.answer.approve(rows[0].answer.id), { confirm_incomplete: true }, user.token),
        (body) => expect(body.questions[0].answer.status).toBe('approved'),
      ],
      [
        'undo',
        () => post(ctx, Q.undo(q.id), {}, user.token),
        (body) => expect(body.questions[0].answer.status).toBe('edited'),
      ],
      [
        'delete question',
        () => post(ctx, Q.deleteQuestion(rows[1].id), {}, user.token),
        (body) => expect(body.questions).toHaveLength(rows.length - 1),
      ],
    ]
    let previous = etag
    for (const [name, act, check] of steps) {
      await act()
      const res = await request({ 'if-none-match': previous })
      expect(res.status, name).toBe(200)
      check((await res.json()) as Body)
      previous = res.headers.get('etag') as string
    }
    const stranger = await member()
    expect((await request({}, stranger.token)).status).toBe(404)
    expect((await request({ 'if-none-match': previous }, stranger.token)).status).toBe(404)
  })
})
