import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { fileOf, get, insertUser, postForm, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any

const ctx = withTestApp()

/**
 * Issue 39, trap 1: last year's completed questionnaire, shaped as a HECVAT is (our own texts):
 * a banner merged across, a Date row and the general information above the column headings,
 * a Yes/No column beside an explanation column, and each section opening with its own header
 * row that repeats 'Vendor Answers' and 'Additional Information'.
 */
async function completedWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Vendor Response')
  const banner = sheet.addRow(['Assessment | Vendor Response', '', '', '', 'Version 3'])
  sheet.mergeCells(`A${banner.number}:D${banner.number}`)
  sheet.addRow(['Vendor Response', 'Vendor Response', 'Vendor Response', 'Vendor Response'])
  sheet.addRow(['DATE-01', 'Date', '2024-05-02'])
  sheet.addRow(['GNRL-01', 'Vendor Name', 'Example Vendor'])
  sheet.addRow(['Qualifiers', 'Qualifiers', 'Vendor Answers', 'Additional Information', 'Guidance'])
  sheet.addRow([
    'QUAL-01',
    'Do you have a well-documented business continuity plan?',
    'Yes',
    'The plan is owned by the COO and tested every year.',
    'Describe the plan.',
  ])
  sheet.addRow(['Company Overview', 'Company Overview', 'Vendor Answers', 'Additional Information'])
  sheet.addRow([
    'COMP-01',
    'Do you have a dedicated information security office?',
    'Yes',
    'A team of six reports to the CISO.',
  ])
  sheet.addRow(['COMP-02', 'Do you have cyber insurance?', 'No', ''])
  sheet.addRow(['Data', 'Data', 'Vendor Answers', 'Additional Information'])
  sheet.addRow(['DATA-01', 'Is data encrypted at rest?', 'Yes', 'AES-256 on every volume.'])
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** Last year's workbook sent to `path`, with the columns chosen (`mapping`) or not. */
const sendWorkbook = (token: string, path: string, data: Buffer, mapping?: unknown) =>
  postForm(ctx, path, token, {
    file: fileOf('last-year.xlsx', data),
    mapping: mapping === undefined ? undefined : JSON.stringify(mapping),
  })

describe('importing last year’s completed questionnaire (issue 39)', () => {
  it('maps the Yes/No column as the dropdown and the explanation as the answer, leaves section headers out, and dates every row by the workbook', async () => {
    const fixture = await insertUser(ctx.database, { role: 'approver' })
    const token = (await signIn(ctx, fixture.email)).access
    const data = await completedWorkbook()
    const preview = await sendWorkbook(token, paths.knowledgeBase.importPreview, data)
    expect(preview.status, JSON.stringify(preview.body)).toBe(200)
    expect(preview.body.stated_at).toBe('2024-05-02')
    const sheet = preview.body.sheets[0]
    expect(sheet.header_row).toBe(5)
    expect(sheet.suggested).toMatchObject({ question: 'B', dropdown: 'C', answer: 'D' })
    // what the suggested columns leave out, and why
    const skipped = sheet.skipped.map((skip: Body) => [skip.row, skip.text])
    expect(skipped).toEqual([
      [7, 'Company Overview'],
      [10, 'Data'],
    ])
    expect(sheet.skipped[0].reason).toMatch(/header row/)
    const imported = await sendWorkbook(token, paths.knowledgeBase.import, data, {
      sheet: 'Vendor Response',
      header_row: sheet.header_row,
      question: sheet.suggested.question,
      answer: sheet.suggested.answer,
      dropdown: sheet.suggested.dropdown,
    })
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body).toEqual({ created: 4, updated: 0, skipped: 2 })
    const items = (await get(ctx, `${paths.knowledgeBase.qa}?page_size=50`, token)).body.results
    const byQuestion = new Map(items.map((item: Body) => [item.question, item]))
    expect([...byQuestion.keys()]).not.toContain('Company Overview')
    expect(items.map((item: Body) => item.answer)).not.toContain('Additional Information')
    expect(byQuestion.get('Is data encrypted at rest?')).toMatchObject({
      answer: 'AES-256 on every volume.',
      dropdown_value: 'Yes',
    })
    // a Yes/No without an explanation keeps its choice as the answer
    expect(byQuestion.get('Do you have cyber insurance?')).toMatchObject({
      answer: 'No',
      dropdown_value: 'No',
    })
    for (const item of items) {
      expect(item.last_reviewed_at.slice(0, 10), item.question).toBe('2024-05-02')
      expect(item.owner_id, item.question).toBe(fixture.user.id)
    }
  })
})
