import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { finished } from '../../support/exports.ts'
import { type Body, questionnaire, rowsOf, settle } from '../answering/helpers.ts'
import { get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * The reviewer's day (issue 39): a person's answer is theirs (no machine band); an answer missing
 * what the customer's cells take is approved only when confirmed; an export may write approved
 * answers only. The questionnaire has a Yes/No/N/A dropdown and a Comments column beside it.
 */

const Q = paths.questionnaires
const ctx = withTestApp()

async function approver(app: TestApp) {
  const fixture = await insertUser(app.database, { role: 'admin' })
  return { id: fixture.user.id, token: (await signIn(app, fixture.email)).access }
}

describe('the reviewer’s day (issue 39)', () => {
  it('a person’s answer is theirs: origin person, no band, the draft’s confidence gone from the answer', async () => {
    const { token } = await approver(ctx)
    const q = await questionnaire(ctx, token, ['Do you encrypt backups?'])
    const [row] = await rowsOf(ctx, token, q.id)
    // nothing written yet: nobody's
    expect(row.answer.origin).toBeNull()
    expect(row.cell_needs).toEqual({ choice: true, text: true })
    const edit = await post(
      ctx,
      Q.answer.edit(row.answer.id),
      { choice: 'Yes', text: 'Nightly, with AES-256.' },
      token,
    )
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    const [written] = await rowsOf(ctx, token, q.id)
    expect(written.answer).toMatchObject({
      origin: 'person',
      band: null,
      confidence: null,
      status: 'edited',
    })
    expect(written.answer.drawn_from).toBeUndefined()
    // the Low filter does not count a person's answer
    const low = await get(ctx, `${Q.answers(q.id)}?filter=low_confidence`, token)
    expect(low.status).toBe(200)
    expect((low.body.questions as Body[]).map((r) => r.id)).not.toContain(row.id)
    // approved, it stays the person's, and no Low filter counts it
    const approved = await post(ctx, Q.answer.approve(row.answer.id), {}, token)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    const [after] = await rowsOf(ctx, token, q.id)
    expect(after.answer).toMatchObject({ origin: 'person', band: null, status: 'approved' })
  })

  it('refuses to approve an answer missing what its cells take (409 incomplete_answer) unless confirmed', async () => {
    const { token } = await approver(ctx)
    const q = await questionnaire(ctx, token, ['Do you rotate keys?', 'Do you log access?'])
    const [first, second] = await rowsOf(ctx, token, q.id)
    // a choice and no text, where the file has a text column beside the dropdown
    await post(ctx, Q.answer.edit(first.answer.id), { choice: 'Yes', text: '' }, token)
    const refused = await post(ctx, Q.answer.approve(first.answer.id), {}, token)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('incomplete_answer')
    expect(refused.body.error).toContain('explanation for the text column')
    expect(refused.body.detail.map((d: Body) => d.field)).toEqual(['text'])
    // no body at all is the same request
    const bare = await post(ctx, Q.answer.approve(first.answer.id), undefined, token)
    expect(bare.status).toBe(409)
    // nothing was approved
    expect((await rowsOf(ctx, token, q.id))[0].answer.status).toBe('edited')
    const confirmed = await post(
      ctx,
      Q.answer.approve(first.answer.id),
      { confirm_incomplete: true },
      token,
    )
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    // a text and no value for the dropdown
    await post(ctx, Q.answer.edit(second.answer.id), { text: 'All access is logged.' }, token)
    const noChoice = await post(ctx, Q.answer.approve(second.answer.id), {}, token)
    expect(noChoice.status).toBe(409)
    expect(noChoice.body.detail.map((d: Body) => d.field)).toEqual(['choice'])
    // complete: approved at once
    await post(ctx, Q.answer.edit(second.answer.id), { choice: 'Yes' }, token)
    expect((await post(ctx, Q.answer.approve(second.answer.id), {}, token)).status).toBe(200)
    // a bad body is a 400
    const bad = await post(
      ctx,
      Q.answer.approve(second.answer.id),
      { confirm_incomplete: 3 },
      token,
    )
    expect(bad.status).toBe(400)
  })

  it('assigning a tab leaves its approved answers out, unless asked', async () => {
    const me = await approver(ctx)
    const q = await questionnaire(ctx, me.token, ['Do you train staff?', 'Do you test backups?'])
    const [first] = await rowsOf(ctx, me.token, q.id)
    await post(ctx, Q.answer.edit(first.answer.id), { choice: 'Yes', text: 'Yearly.' }, me.token)
    expect((await post(ctx, Q.answer.approve(first.answer.id), {}, me.token)).status).toBe(200)
    const assign = (body: Record<string, unknown>) =>
      post(ctx, Q.assign(q.id), { assignee_id: me.id, tab_id: first.tab_id, ...body }, me.token)
    const tab = await assign({})
    expect(tab.status, JSON.stringify(tab.body)).toBe(200)
    expect(tab.body.assigned).toBe(1)
    expect((await assign({ include_approved: true })).body.assigned).toBe(2)
  })

  it('a regeneration that finds nothing new says so', async () => {
    const { token } = await approver(ctx)
    const q = await questionnaire(ctx, token, ['Do you have a bug bounty?'])
    const [row] = await rowsOf(ctx, token, q.id)
    const first = await post(ctx, paths.questionnaires.answer.regenerate(row.answer.id), {}, token)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.questions[0].answer.status).toBe('no_answer')
    const again = await post(ctx, paths.questionnaires.answer.regenerate(row.answer.id), {}, token)
    expect(again.status).toBe(200)
    expect(again.body.notice).toBe('No new evidence since the last draft')
    // with evidence that answers it, the draft changes and nothing is said of it
    const withEvidence = await post(
      ctx,
      paths.questionnaires.answer.regenerateWithEvidence(row.answer.id),
      { evidence: 'We run a public bug bounty programme with HackerOne, open to all researchers.' },
      token,
    )
    expect(withEvidence.status, JSON.stringify(withEvidence.body)).toBe(200)
    expect(withEvidence.body.notice).toBeUndefined()
  })

  it('exports approved answers only when asked: answers_written counts what was written', async () => {
    const { token } = await approver(ctx)
    const q = await questionnaire(ctx, token, ['Do you patch monthly?', 'Do you scan weekly?'])
    const [first, second] = await rowsOf(ctx, token, q.id)
    await post(ctx, Q.answer.edit(first.answer.id), { choice: 'Yes', text: 'Monthly.' }, token)
    await post(ctx, Q.answer.approve(first.answer.id), {}, token)
    await post(ctx, Q.answer.edit(second.answer.id), { choice: 'No', text: 'Not yet.' }, token)
    const api = {
      post: (route: string, body: unknown) => post(ctx, route, body, token),
      get: (route: string) => get(ctx, route, token),
    }
    const all = await post(ctx, Q.exportOriginal, { questionnaire_id: q.id }, token)
    expect(all.status, JSON.stringify(all.body)).toBe(202)
    expect((await finished(api, all.body.export.id)).run?.filled_file?.answers_written).toBe(2)
    const approvedOnly = await post(
      ctx,
      Q.exportOriginal,
      { questionnaire_id: q.id, approved_only: true },
      token,
    )
    expect(approvedOnly.status, JSON.stringify(approvedOnly.body)).toBe(202)
    expect(approvedOnly.body.export.approved_only).toBe(true)
    const done = await finished(api, approvedOnly.body.export.id)
    expect(done.run?.filled_file?.answers_written).toBe(1)
    // the organisation's default decides where the export does not say
    const setting = await post(
      ctx,
      paths.account.updateOrganization,
      { export_approved_only: true },
      token,
    )
    expect(setting.status, JSON.stringify(setting.body)).toBe(200)
    expect(setting.body.export_approved_only).toBe(true)
    const check = await get(ctx, `${Q.checkFilledFile}?questionnaire_id=${q.id}`, token)
    expect(check.body.approved_only_default).toBe(true)
    const byDefault = await post(ctx, Q.exportOriginal, { questionnaire_id: q.id }, token)
    expect(byDefault.body.export.approved_only).toBe(true)
    expect((await finished(api, byDefault.body.export.id)).run?.filled_file?.answers_written).toBe(
      1,
    )
    const allAsked = await post(
      ctx,
      Q.exportOriginal,
      { questionnaire_id: q.id, approved_only: false },
      token,
    )
    expect(allAsked.body.export.approved_only).toBe(false)
  })
})

describe('the work asked at upload (issue 39)', () => {
  async function upload(app: TestApp, token: string, fields: Record<string, string>) {
    const form = new FormData()
    const csv = 'ID,Question,Answer\nA-1,Do you encrypt data at rest?,\n'
    form.append('file', new Blob([csv]), 'customer.csv')
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    const res = await app.app.request(apiPath(Q.upload), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: res.status, body: (await res.json()) as Body }
  }
  const count = async (app: TestApp, token: string) =>
    Number((await get(app, `${Q.list}?page_size=200`, token)).body.count)

  it('keeps the customer, due date and owner given with the file', async () => {
    const { id, token } = await approver(ctx)
    const res = await upload(ctx, token, {
      customer_name: '  Northwind Health ',
      due_date: '2027-01-15',
      owner_id: String(id),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.customer).toMatchObject({ name: 'Northwind Health' })
    expect(res.body.due_date).toBe('2027-01-15')
    expect(String(res.body.owner.id)).toBe(String(id))
    const read = await get(ctx, Q.get(res.body.id), token)
    expect(read.body.customer).toMatchObject({ name: 'Northwind Health' })
    // blank fields are no fields
    const plain = await upload(ctx, token, { customer_name: ' ', due_date: '' })
    expect(plain.status).toBe(201)
    expect(plain.body.customer).toBeNull()
  })

  it('refuses a bad date or an owner who cannot work on it, and stores nothing', async () => {
    const { token } = await approver(ctx)
    const viewer = await insertUser(ctx.database, { role: 'viewer' })
    const before = await count(ctx, token)
    const badDate = await upload(ctx, token, { due_date: '15/01/2027' })
    expect(badDate.status).toBe(400)
    expect(JSON.stringify(badDate.body)).toContain('A date is written YYYY-MM-DD')
    const badOwner = await upload(ctx, token, { owner_id: String(viewer.user.id) })
    expect(badOwner.status).toBe(400)
    const stranger = await upload(ctx, token, { owner_id: '999999' })
    expect(stranger.status).toBe(400)
    expect(await count(ctx, token)).toBe(before)
  })
})

describe('a file that arrives with answers (issue 39)', () => {
  async function uploadWorkbook(app: TestApp, token: string, rows: string[][], list = true) {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Security')
    sheet.addRow(['ID', 'Question', 'Answer', 'Comments'])
    for (const values of rows) {
      const row = sheet.addRow(values)
      if (list)
        row.getCell(3).dataValidation = {
          type: 'list',
          allowBlank: true,
          formulae: ['"Yes,No,N/A"'],
        }
    }
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]), 'half.xlsx')
    const res = await app.app.request(apiPath(Q.upload), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const body = (await res.json()) as Body
    expect(res.status, JSON.stringify(body)).toBe(201)
    return settle(app, token, body.id)
  }

  it('keeps them as the starting point: status existing, counted, not drafted again unless asked', async () => {
    const { token } = await approver(ctx)
    const q = await uploadWorkbook(ctx, token, [
      ['SEC-01', 'Do you encrypt backups?', 'Yes', 'AES-256, keys in a KMS.'],
      ['SEC-02', 'Do you run a bug bounty?', '', ''],
      ['SEC-03', 'Do you review access quarterly?', 'Please select', ''],
    ])
    expect(q.answered).toBe(1)
    const [first, second, third] = await rowsOf(ctx, token, q.id)
    expect(first.answer).toMatchObject({
      status: 'existing',
      choice: 'Yes',
      text: 'AES-256, keys in a KMS.',
      origin: 'person',
      band: null,
    })
    expect(second.answer.status).toBe('pending')
    // a prompt in the cell is no answer
    expect(third.answer.status).toBe('pending')
    // generation drafts the open questions and leaves the file's answer as it was
    expect((await post(ctx, Q.generate(q.id), {}, token)).status).toBe(202)
    await settle(ctx, token, q.id)
    const [kept, drafted] = await rowsOf(ctx, token, q.id)
    expect(kept.answer).toMatchObject({ status: 'existing', text: 'AES-256, keys in a KMS.' })
    expect(drafted.answer.status).not.toBe('pending')
    // asked, it drafts the file's answers too
    const again = await post(ctx, Q.generate(q.id), { include_existing: true }, token)
    expect(again.status).toBe(202)
    await settle(ctx, token, q.id)
    const [redrafted] = await rowsOf(ctx, token, q.id)
    expect(redrafted.answer.status).not.toBe('existing')
    // and Undo brings the file's answer back
    expect((await post(ctx, Q.undo(q.id), {}, token)).status).toBe(200)
    const [restored] = await rowsOf(ctx, token, q.id)
    expect(restored.answer).toMatchObject({ status: 'existing', choice: 'Yes' })
  })

  it('takes no template sentence on every row for an answer', async () => {
    const { token } = await approver(ctx)
    const template = 'Vendor to describe the control here in full.'
    const q = await uploadWorkbook(
      ctx,
      token,
      [
        ['A-01', 'Do you encrypt data at rest?', template, ''],
        ['A-02', 'Do you log administrator access?', template, ''],
        ['A-03', 'Do you test your backups?', template, ''],
        ['A-04', 'Do you train staff yearly?', 'Every March, with a test.', ''],
      ],
      false,
    )
    const rows = await rowsOf(ctx, token, q.id)
    expect(rows.map((row) => row.answer.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'existing',
    ])
    expect(rows[3]?.answer.text).toBe('Every March, with a test.')
  })
})
