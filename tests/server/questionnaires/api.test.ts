import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { FOUR_COLUMNS, SECTIONED_COLUMNS } from '../../fixtures/answer-rows.ts'
import { makeDocx, makePdf } from '../../fixtures/documents.ts'
import { makeQuestionnaireXlsx } from '../../fixtures/questionnaires.ts'
import { get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, questionnaireSteps } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })
const { member, upload, ready, analysed, binary, answersOf } = questionnaireSteps(ctx)

// Intake, analysis and the mapping of a tab; answers and tenancy are in api-answers.test.ts,
// exports in api-exports.test.ts.

describe('questionnaire intake and analysis', () => {
  it('finds tabs, questions, dropdown vocabularies, sections and formula texts of a workbook', async () => {
    const user = await member()
    const res = await upload(
      user.token,
      'Vendor assessment.xlsx',
      await makeQuestionnaireXlsx({ custom: true }),
    )
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'Vendor assessment.xlsx', kind: 'xlsx' })
    expect(['queued', 'analyzing', 'ready']).toContain(res.body.status)
    const done = await ready(user.token, res.body.id)
    expect(done).toMatchObject({
      status: 'ready',
      progress: 100,
      questions: 11,
      answered: 0,
      approved: 0,
      can_export_original: true,
      unsure_tabs: 0,
    })
    const tabs = (await get(ctx, Q.tabs(done.id), user.token)).body.tabs as Body[]
    // every visible sheet is a tab, the hidden list sheet is not
    expect(tabs.map((t) => [t.name, t.questions])).toEqual([
      ['Instructions', 0],
      ['DATA Controls', 4],
      ['IAM Controls', 4],
      ['Custom', 3],
    ])
    expect(tabs[1].mapping).toEqual(FOUR_COLUMNS)
    expect(tabs[3].mapping).toMatchObject({
      header_row: 2,
      question_column: 0,
      answer_column: 1,
      comment_column: 2,
    })
    expect(tabs[3].headers.slice(0, 3)).toEqual(['A: Question', 'B: Response', 'C: Comments'])
    const body = await answersOf(user.token, done.id)
    const questions = body.questions as Body[]
    expect(questions).toHaveLength(11)
    expect(questions[0]).toMatchObject({
      ref: 'DATA-01',
      text: 'Do you encrypt customer data at rest (DATA item 1)?',
      section: 'DATA section',
      answer_cell: 'C4',
      vocabulary: ['Yes', 'No', 'N/A'],
      answer: { status: 'pending', text: '', choice: null, confidence: null },
    })
    // the named range on the hidden sheet (protected tab) resolves too
    expect(questions[4]).toMatchObject({ ref: 'IAM-01', vocabulary: ['Yes', 'No', 'N/A'] })
    expect(questions[8]).toMatchObject({
      ref: null,
      text: 'Describe how you handle security incidents.',
      vocabulary: null,
      answer_cell: 'B3',
    })
    const byTab = (await get(ctx, Q.answersByTab(done.id), user.token)).body
    expect(byTab.tabs.map((t: Body) => t.questions.length)).toEqual([0, 4, 4, 3])
    const filtered = await answersOf(user.token, done.id, `?tab=${tabs[2].id}`)
    expect(filtered.questions.map((q: Body) => q.ref)).toEqual([
      'IAM-01',
      'IAM-02',
      'IAM-03',
      'IAM-04',
    ])
    // the original comes back byte for byte
    const original = await binary(Q.download(done.id), user.token)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-disposition')).toContain('Vendor assessment.xlsx')
  })

  it('reads CSV (byte-order mark, section rows), Word tables and numbered PDF questions', async () => {
    const user = await member()
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        'ID,Question,Answer,Notes\r\n"Access control",,,\r\nAC-01,"Do you enforce\nstrong passwords?",,\r\nAC-02,Do you lock accounts after failed logins?,,\r\nAC-03,Is single sign-on supported?,,\r\n',
      ),
    ])
    const fromCsv = await analysed(user.token, 'access.csv', csv)
    expect(fromCsv.questions).toBe(3)
    const csvRows = (await answersOf(user.token, fromCsv.id)).questions
    expect(csvRows[0]).toMatchObject({
      ref: 'AC-01',
      text: 'Do you enforce strong passwords?',
      answer_cell: 'C3',
    })

    const docx = makeDocx([
      { heading: 'Security questionnaire' },
      {
        table: [
          ['No.', 'Question', 'Response'],
          ['1', 'Do you encrypt data in transit?', ''],
          ['2', 'Describe your incident response process.', ''],
        ],
      },
      { paragraph: '3. Do you have a business continuity plan?' },
    ])
    const fromDocx = await analysed(user.token, 'rfp.docx', docx)
    expect(fromDocx.questions).toBe(3)
    const docxRows = (await answersOf(user.token, fromDocx.id)).questions
    expect(docxRows.map((q: Body) => q.text)).toEqual([
      'Do you encrypt data in transit?',
      'Describe your incident response process.',
      'Do you have a business continuity plan?',
    ])

    const pdf = await makePdf([
      [
        'Vendor questions',
        '1. Do you perform background checks on staff?',
        '2. Is customer data encrypted at rest?',
      ],
    ])
    const fromPdf = await analysed(user.token, 'questions.pdf', pdf)
    expect(fromPdf).toMatchObject({ questions: 2, can_export_original: false })
  })

  it('refuses files that are not questionnaires, and anonymous callers', async () => {
    const user = await member()
    const text = await upload(user.token, 'notes.txt', Buffer.from('just some notes'))
    expect(text.status).toBe(415)
    expect(text.body.error).toBe(
      'notes.txt is not a supported questionnaire. Upload an Excel (.xlsx), CSV, Word (.docx) or PDF file.',
    )
    expect((await upload(undefined, 'a.csv', Buffer.from('Question\nIs it?'))).status).toBe(401)
    const none = await ctx.app.request(apiPath(Q.upload), {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: new FormData(),
    })
    expect(none.status).toBe(400)
    expect((await get(ctx, Q.list, user.token)).body).toEqual({ count: 0, results: [] })
  })

  it('fails a file without questions with a message that says what to do', async () => {
    const user = await member()
    const pdf = await makePdf([['Company overview', 'We make bicycles.']])
    const res = await upload(user.token, 'overview.pdf', pdf)
    const done = await ready(user.token, res.body.id)
    expect(done).toMatchObject({ status: 'failed' })
    expect(done.error).toMatch(/^No questions were found in this file/)
  })
})

describe('mapping and re-analysis', () => {
  it('asks for the mapping of a tab it cannot read, and re-analyses with the confirmed one keeping answers', async () => {
    const user = await member()
    const csv = Buffer.from(
      'Topic,Text,Reply,Extra\nAccess,Staff badges are required in the office,,\nAccess,Visitors sign in at reception,,\nNetwork,Firewalls are reviewed monthly,,\n',
    )
    const q = await analysed(user.token, 'statements.csv', csv)
    expect(q.questions).toBe(0)
    const [tab] = (await get(ctx, Q.tabs(q.id), user.token)).body.tabs as Body[]
    expect(tab).toMatchObject({ name: 'statements', mapping_state: 'unsure' })
    expect(tab.preview[0]).toEqual(['Topic', 'Text', 'Reply', 'Extra'])

    const badTab = await post(
      ctx,
      Q.reAnalyze(q.id),
      {
        mappings: [
          {
            tab: 'nope',
            mapping: SECTIONED_COLUMNS,
          },
        ],
      },
      user.token,
    )
    expect(badTab.status).toBe(400)
    expect(badTab.body.error).toBe('This questionnaire has no tab named nope')

    const mapping = {
      header_row: 1,
      id_column: null,
      question_column: 1,
      answer_column: 2,
      comment_column: 3,
      section_column: 0,
    }
    const res = await post(
      ctx,
      Q.reAnalyze(q.id),
      { mappings: [{ tab: 'statements', mapping }] },
      user.token,
    )
    expect(res.status).toBe(200)
    const done = await ready(user.token, q.id)
    expect(done.questions).toBe(3)
    const [mapped] = (await get(ctx, Q.tabs(q.id), user.token)).body.tabs as Body[]
    expect(mapped).toMatchObject({ mapping_state: 'confirmed', mapping })
    const rows = (await answersOf(user.token, q.id)).questions as Body[]
    expect(rows.map((r) => r.section)).toEqual(['Access', 'Access', 'Network'])
    await post(
      ctx,
      Q.answer.edit(rows[2].answer.id),
      { text: 'Monthly, by the network team.' },
      user.token,
    )
    // re-analysis keeps the answers of questions it finds again
    await post(ctx, Q.reAnalyze(q.id), {}, user.token)
    await ready(user.token, q.id)
    const again = (await answersOf(user.token, q.id)).questions as Body[]
    expect(again[2].answer).toMatchObject({
      text: 'Monthly, by the network team.',
      status: 'edited',
    })
    const history = (await get(ctx, Q.operations(q.id), user.token)).body.operations as Body[]
    expect(history[0]).toMatchObject({ kind: 'reanalyze', can_undo: false })
    expect((await post(ctx, Q.undo(q.id), {}, user.token)).status).toBe(409)
  })
})
