import { describe, expect, it } from 'vitest'
import { AUDIT_ACTIONS, auditSentence } from '../../contract/audit.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import { makeQuestionnaireXlsx } from '../fixtures/questionnaires.ts'
import { exported } from '../support/exports.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any
const Q = paths.questionnaires
const K = paths.knowledgeBase

/**
 * Issue 30 and TI7: every change of consequence is in the organisation's audit log, once, with
 * its actor and the object by name (kept when the object is gone), worded as a sentence by
 * contract/audit.ts; another organisation's entries never show.
 */

const ctx = withTestApp()

async function admin(orgId?: number) {
  const fixture = await insertUser(ctx.database, { role: 'admin', orgId })
  await ctx.database.pool.query(
    `update users set first_name = 'Ana', last_name = 'Admin' where id = $1`,
    [fixture.user.id],
  )
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

async function send(token: string, path: string, name: string, data: Buffer, extra = {}) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(data)]), name)
  for (const [key, value] of Object.entries(extra)) form.append(key, String(value))
  const res = await ctx.app.request(apiPath(path), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: res.status, body: (await res.json()) as Body }
}

async function binary(path: string, token: string) {
  const res = await ctx.app.request(apiPath(path), {
    headers: { authorization: `Bearer ${token}` },
  })
  await res.arrayBuffer()
  return res.status
}

/** The log's entries of one action, newest first. */
async function entries(token: string, action: string) {
  const log = await get(ctx, `${paths.account.auditLog}?action=${action}&page_size=200`, token)
  expect(log.status).toBe(200)
  return (log.body.results as Body[]).filter((entry) => entry.action === action)
}

/** Exactly one entry of `action`, by `actor`, naming `name`; its sentence says both. */
async function once(token: string, action: string, actor: { id: number }, name: string) {
  const found = await entries(token, action)
  expect(found, action).toHaveLength(1)
  const [entry] = found
  expect(entry.actor, action).toMatchObject({ id: actor.id, name: 'Ana Admin' })
  expect(entry.object, action).toBe(name)
  expect(entry.label).toBe(AUDIT_ACTIONS[action]?.label)
  expect(entry.summary, action).toContain('Ana Admin')
  expect(entry.summary, action).toContain(name)
  expect(entry.summary).toBe(auditSentence(entry))
  return entry
}

describe('the audit log (issue 30, TI7)', () => {
  it('records each change of the repository, library, questionnaires and people by name', async () => {
    const ana = await admin()
    const { user } = ana
    const stranger = await admin()
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

    // the repository: an upload, a new version by the same name, a download, a deletion
    const added = await send(ana.token, paths.files.upload, 'policy.txt', Buffer.from('Policy v1'))
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const fileId = added.body.files[0].id
    await once(ana.token, 'file.uploaded', user, 'policy.txt')
    const again = await send(ana.token, paths.files.upload, 'policy.txt', Buffer.from('Policy v2'))
    expect(again.status).toBe(201)
    await once(ana.token, 'file.version_added', user, 'policy.txt')
    expect(await binary(paths.files.download(fileId), ana.token)).toBe(200)
    await once(ana.token, 'file.downloaded', user, 'policy.txt')
    expect(
      (await call(ctx, 'DELETE', paths.files.delete(fileId), { token: ana.token })).status,
    ).toBe(200)
    const deleted = await once(ana.token, 'file.deleted', user, 'policy.txt')
    expect(deleted.summary).toBe('Ana Admin deleted policy.txt')
    // another organisation's upload stays in its own log
    await send(stranger.token, paths.files.upload, 'their-secret-plan.pdf', pdf)

    // the library: add, edit, confirm, delete, import (the question names the answer)
    const question = `Do you encrypt customer data at rest with keys you manage? ${'x'.repeat(150)}`
    const created = await post(
      ctx,
      K.qa,
      { question, answer: 'Yes, with AES-256.', tags: [] },
      ana.token,
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const qaId = created.body.id
    const short = `${question.slice(0, 119)}…`
    await once(ana.token, 'qa.created', user, short)
    const edited = await call(ctx, 'PATCH', K.qaItem(qaId), {
      token: ana.token,
      body: { answer: 'Yes, with AES-256 and keys in a KMS.' },
    })
    expect(edited.status).toBe(200)
    await once(ana.token, 'qa.updated', user, short)
    expect((await post(ctx, K.qaReviewed(qaId), {}, ana.token)).status).toBe(200)
    await once(ana.token, 'qa.reviewed', user, short)
    expect((await call(ctx, 'DELETE', K.deleteQa(qaId), { token: ana.token })).status).toBe(200)
    await once(ana.token, 'qa.deleted', user, short)
    const csv = Buffer.from('Question,Answer\r\nDo you run backups?,Daily\r\n')
    const preview = await send(ana.token, K.importPreview, 'answers.csv', csv)
    expect(preview.status, JSON.stringify(preview.body)).toBe(200)
    const sheet = preview.body.sheets[0]
    const imported = await send(ana.token, K.import, 'answers.csv', csv, {
      mapping: JSON.stringify({
        sheet: sheet.name,
        header_row: sheet.header_row,
        question: 'A',
        answer: 'B',
        tags: [],
      }),
    })
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const importEntry = await once(ana.token, 'qa.imported', user, 'answers.csv')
    expect(importEntry.summary).toBe(
      'Ana Admin imported answers.csv into the library (1 added, 0 updated)',
    )

    // a questionnaire: upload, an answer approved and its approval withdrawn, export, downloads
    const name = 'Vendor assessment.xlsx'
    const uploaded = await send(ana.token, Q.upload, name, await makeQuestionnaireXlsx())
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
    const qid = uploaded.body.id
    await once(ana.token, 'questionnaire.uploaded', user, name)
    for (let i = 0; i < 300; i++) {
      const status = (await get(ctx, Q.get(qid), ana.token)).body.status
      if (status === 'ready' || status === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const rows = (await get(ctx, Q.answers(qid), ana.token)).body.questions as Body[]
    const row = rows.find((each) => each.vocabulary) ?? rows[0]
    const answerId = row.answer.id
    const choice = row.vocabulary?.[0]
    await post(ctx, Q.answer.edit(answerId), choice ? { choice } : { text: 'Yes' }, ana.token)
    expect(
      (await post(ctx, Q.answer.approve(answerId), { confirm_incomplete: true }, ana.token)).status,
    ).toBe(200)
    await once(ana.token, 'questionnaire.approved', user, name)
    expect((await post(ctx, Q.answer.unApprove(answerId), {}, ana.token)).status).toBe(200)
    const withdrawn = await once(ana.token, 'questionnaire.unapproved', user, name)
    expect(withdrawn.summary).toMatch(/^Ana Admin withdrew the approval of the answer to .+ in /)
    // the export runs as a job (issue 37): its entry names who asked for it
    const out = await exported(ctx, ana.token, { questionnaire_id: qid })
    expect(out.status, JSON.stringify(out.body)).toBe(202)
    expect(out.run?.status).toBe('done')
    await once(ana.token, 'questionnaire.exported', user, name)
    const filledId = out.filled_file?.id as number
    expect(await binary(Q.filledFileDownload(filledId), ana.token)).toBe(200)
    expect(await binary(`${Q.downloadFilledFile}?questionnaire_id=${qid}`, ana.token)).toBe(200)
    const downloads = await entries(ana.token, 'questionnaire.filled_file_downloaded')
    expect(downloads).toHaveLength(2)
    expect(downloads[0].summary).toContain(`the filled file of ${name}`)
    expect(await binary(Q.download(qid), ana.token)).toBe(200)
    await once(ana.token, 'questionnaire.downloaded', user, name)
    expect((await call(ctx, 'DELETE', Q.delete(qid), { token: ana.token })).status).toBe(200)
    await once(ana.token, 'questionnaire.deleted', user, name)
    // the questionnaire is gone: its entries still read by its name
    expect((await entries(ana.token, 'questionnaire.uploaded'))[0].summary).toBe(
      `Ana Admin uploaded ${name}`,
    )

    // people: the invitee and the person by their address, never a bare id
    const invitee = `invitee-${Date.now()}@example.com`
    const invited = await post(
      ctx,
      paths.users.invite,
      { email: invitee, role: 'viewer' },
      ana.token,
    )
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    const invite = await once(ana.token, 'user.invited', user, invitee)
    expect(invite.summary).toBe(`Ana Admin invited ${invitee} as Viewer`)
    const bob = await insertUser(ctx.database, { role: 'contributor', orgId: ana.orgId })
    expect(
      (await post(ctx, paths.users.role(bob.user.id), { role: 'approver' }, ana.token)).status,
    ).toBe(200)
    const role = await once(ana.token, 'user.role_changed', user, bob.email)
    expect(role.summary).toBe(`Ana Admin changed the role of ${bob.email} to Approver`)
    expect(
      (await post(ctx, paths.users.generateTemporaryPassword(bob.user.id), {}, ana.token)).status,
    ).toBe(200)
    await once(ana.token, 'user.temporary_password', user, bob.email)
    expect((await post(ctx, paths.users.remove(bob.user.id), {}, ana.token)).status).toBe(200)
    await once(ana.token, 'user.removed', user, bob.email)

    // settings: what changed, by name
    await post(ctx, paths.account.updateOrganization, { answer_tone: 'formal' }, ana.token)
    const settings = await once(ana.token, 'organization.updated', user, 'answer tone')
    expect(settings.summary).toBe('Ana Admin changed the organisation’s settings (answer tone)')

    // the download reads the same sentences
    const download = await call(ctx, 'GET', paths.account.auditLogExport, { token: ana.token })
    expect(String(download.body)).toContain(
      `"Ana Admin changed the role of ${bob.email} to Approver"`,
    )

    // tenancy: neither organisation sees the other's entries
    const ours = JSON.stringify(
      (await get(ctx, `${paths.account.auditLog}?page_size=200`, ana.token)).body,
    )
    expect(ours).not.toContain('their-secret-plan.pdf')
    expect(ours).not.toContain(stranger.email)
    const theirs = (await get(ctx, `${paths.account.auditLog}?page_size=200`, stranger.token)).body
    expect(theirs.results.map((entry: Body) => entry.object)).toEqual(['their-secret-plan.pdf'])
    expect(JSON.stringify(theirs)).not.toContain('policy.txt')
  })
})
