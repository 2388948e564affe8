import { describe, expect, it } from 'vitest'
import { fileDetailsSchema, filePassageListSchema } from '../../../contract/file-page.ts'
import { answeredRowListSchema } from '../../../contract/knowledge.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { makeCsv, makePdf } from '../../fixtures/documents.ts'
import { uploadFile } from '../answering/helpers.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * Issue 30: a file's page. What was read from it (passages with their pages, or a completed
 * questionnaire's rows, each once), every status it has been in, its versions, and the answers
 * and library items that cite it; another organisation's file is not found.
 */

const ctx = withTestApp({ jobs: true })

async function member(orgId?: number) {
  const fixture = await insertUser(ctx.database, { role: 'admin', orgId })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

async function waitSettled(token: string, id: number) {
  for (let i = 0; i < 400; i++) {
    const res = await get(ctx, paths.files.get(id), token)
    if (res.body.status === 'ready' || res.body.status === 'failed') return res.body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`file ${id} never settled`)
}

/** A questionnaire of the organisation whose one answer cites `fileId`. */
async function citingAnswer(orgId: number, fileId: number) {
  const { pool } = ctx.database
  const q = await pool.query<{ id: string }>(
    `insert into questionnaires (org_id, name, kind, mime, storage_key)
     values ($1, 'Acme review.xlsx', 'xlsx', 'application/octet-stream', gen_random_uuid()) returning id`,
    [orgId],
  )
  const tab = await pool.query<{ id: string }>(
    `insert into questionnaire_tabs (org_id, questionnaire_id, name, position)
     values ($1, $2, 'Sheet1', 0) returning id`,
    [orgId, q.rows[0]?.id],
  )
  const question = await pool.query<{ id: string }>(
    `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, text, match_key)
     values ($1, $2, $3, 0, 'Do you review access quarterly?', 'x') returning id`,
    [orgId, q.rows[0]?.id, tab.rows[0]?.id],
  )
  await pool.query(
    `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, status, citations)
     values ($1, $2, $3, 0, 'Yes, every quarter.', 'approved', $4)`,
    [
      orgId,
      q.rows[0]?.id,
      question.rows[0]?.id,
      JSON.stringify([{ source: 'file', id: fileId, title: 'Policy.pdf', snippet: 'quarterly' }]),
    ],
  )
  return { questionnaireId: Number(q.rows[0]?.id), questionId: Number(question.rows[0]?.id) }
}

describe('a file’s page (issue 30)', () => {
  it('shows what was read with its pages, the status history, versions and what cites the file', async () => {
    const admin = await member()
    const pdf = await makePdf([['Access control policy'], ['Access is reviewed quarterly.']])
    const id = await uploadFile(ctx, admin.token, 'Policy.pdf', pdf)
    const cited = await citingAnswer(admin.orgId, id)
    await ctx.database.pool.query(
      `insert into kb_qa_items (org_id, question, answer, question_key, source_file_id)
       values ($1, 'Is access reviewed?', 'Quarterly.', 'is access reviewed?', $2)`,
      [admin.orgId, id],
    )

    const res = await get(ctx, paths.files.details(id), admin.token)
    expect(res.status).toBe(200)
    const details = fileDetailsSchema.parse(res.body)
    expect(details.file).toMatchObject({ id, name: 'Policy.pdf', status: 'ready' })
    expect(details.history.map((step) => step.status)).toEqual(['queued', 'processing', 'ready'])
    expect(details.history.every((step) => step.version === 1)).toBe(true)
    expect(details.versions).toHaveLength(1)
    expect(details.answers).toEqual([
      expect.objectContaining({
        questionnaire_id: cited.questionnaireId,
        question_id: cited.questionId,
        answer: 'Yes, every quarter.',
      }),
    ])
    expect(details.answers_count).toBe(1)
    expect(details.items.map((item) => item.question)).toEqual(['Is access reviewed?'])

    const read = filePassageListSchema.parse(
      (await get(ctx, `${paths.files.passages(id)}?page_size=10`, admin.token)).body,
    )
    expect(read.count).toBeGreaterThanOrEqual(1)
    expect(read.results.map((passage) => passage.location?.page)).toContain(2)
    expect(read.results.map((passage) => passage.text).join(' ')).toContain('reviewed quarterly')
    // a source cited at page 2 opens the list where page 2 starts (issue 30)
    const opened = filePassageListSchema.parse(
      (await get(ctx, `${paths.files.passages(id)}?page_size=1&at_page=2`, admin.token)).body,
    )
    expect(opened.results[0]?.location?.page).toBe(2)
    expect(opened.page).toBe(read.results.findIndex((passage) => passage.location?.page === 2) + 1)

    // reprocessing is recorded: queued, processing and ready again
    await post(ctx, paths.files.reprocess(id), {}, admin.token)
    await waitSettled(admin.token, id)
    const again = fileDetailsSchema.parse(
      (await get(ctx, paths.files.details(id), admin.token)).body,
    )
    expect(again.history.map((step) => step.status)).toEqual([
      'queued',
      'processing',
      'ready',
      'queued',
      'processing',
      'ready',
    ])
  })

  it('lists a completed questionnaire’s rows once each, even a row long enough to be cut in parts', async () => {
    const admin = await member()
    const long = `Yes. ${'Access is reviewed by the security officer every quarter. '.repeat(40)}`
    const csv = makeCsv([
      { question: 'Do you review access?', answer: long },
      { question: 'Vendor Name', answer: 'Acme Learning Ltd' },
    ])
    const id = await uploadFile(ctx, admin.token, 'Completed.csv', csv)
    const read = filePassageListSchema.parse(
      (await get(ctx, paths.files.passages(id), admin.token)).body,
    )
    expect(read.results.map((passage) => passage.question)).toEqual([
      'Do you review access?',
      'Vendor Name',
    ])
    expect(read.results[1]?.location?.row).toBeGreaterThan(1)
    // the knowledge base's rows of completed questionnaires: the long row once too
    const answered = answeredRowListSchema.parse(
      (await get(ctx, paths.knowledgeBase.answered, admin.token)).body,
    )
    expect(answered.results.filter((row) => row.file_id === id).map((row) => row.question)).toEqual(
      ['Do you review access?', 'Vendor Name'],
    )
  })

  it('records a failure with its reason', async () => {
    const admin = await member()
    const id = await upload(admin.token, 'Broken.pdf', Buffer.from('%PDF-1.4 not really a pdf'))
    const settled = await waitSettled(admin.token, id)
    expect(settled.status).toBe('failed')
    const details = fileDetailsSchema.parse(
      (await get(ctx, paths.files.details(id), admin.token)).body,
    )
    const last = details.history.at(-1)
    expect(last?.status).toBe('failed')
    expect(last?.error).toBe(settled.error)
  })

  it('another organisation’s file is not found, its passages neither', async () => {
    const admin = await member()
    const stranger = await member()
    const id = await uploadFile(ctx, admin.token, 'Mine.txt', 'Backups are encrypted at rest.')
    expect((await get(ctx, paths.files.details(id), stranger.token)).status).toBe(404)
    expect((await get(ctx, paths.files.passages(id), stranger.token)).status).toBe(404)
    expect((await get(ctx, paths.files.details(987654321), admin.token)).status).toBe(404)
    expect((await get(ctx, `${paths.files.passages(id)}?page=0`, admin.token)).status).toBe(400)
  })
})

/** Uploads a file without waiting for it to be read. */
async function upload(token: string, name: string, data: Buffer) {
  const form = new FormData()
  form.append('files', new Blob([new Uint8Array(data)]), name)
  const res = await ctx.app.request(apiPath(paths.files.upload), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return Number(((await res.json()) as { files: { id: number }[] }).files[0]?.id)
}
