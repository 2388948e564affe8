import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { makeXlsx } from '../../fixtures/documents.ts'
import { post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, rowsOf, settle, uploadFile, uploadQuestionnaire } from './helpers.ts'

/**
 * Fields that describe the submission, end to end (issues 30 and 38): the organisation's data
 * items are loaded with its library, and another questionnaire's row in the repository never
 * fills them nor is offered for them, at any confidence.
 */

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

/** A questionnaire of free-text cells (no dropdown), uploaded and analysed. */
async function textQuestionnaire(token: string, labels: string[]) {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('General')
  sheet.addRow(['ID', 'Question', 'Answer'])
  for (const [index, label] of labels.entries()) sheet.addRow([`GNRL-${index + 1}`, label, ''])
  return uploadQuestionnaire(ctx, token, workbook, 'g.xlsx')
}

describe('fields that describe the submission', () => {
  it("are filled from the data items or left to fill, never from another questionnaire's row", async () => {
    const user = await member(ctx)
    await uploadFile(
      ctx,
      user.token,
      'Last year.xlsx',
      await makeXlsx([
        { question: 'Date', answer: '2024-04-30' },
        { question: 'Vendor Name', answer: 'Acme Learning' },
        { question: 'Vendor Contact Phone Number', answer: '+1 555 0100' },
      ]),
    )
    const item = await post(
      ctx,
      paths.knowledgeBase.data,
      { title: 'Company name', value: 'Acme Learning Ltd', tags: [] },
      user.token,
    )
    expect(item.status, JSON.stringify(item.body)).toBe(201)
    const q = await textQuestionnaire(user.token, [
      'Date this questionnaire was completed',
      'Vendor Name',
      'Vendor Contact Phone Number',
      'Contact Phone',
    ])
    expect((await post(ctx, Q.generate(q.id), {}, user.token)).status).toBe(202)
    await settle(ctx, user.token, q.id)
    const rows = await rowsOf(ctx, user.token, q.id)
    const [date, vendor, phone, contactPhone] = rows.map((row: Body) => row.answer)
    expect(date.text).toBe(new Date().toISOString().slice(0, 10))
    expect(date.band).not.toBe('high')
    expect(vendor).toMatchObject({ text: 'Acme Learning Ltd', band: 'high' })
    expect(vendor.citations[0]).toMatchObject({ source: 'data' })
    // no data item holds the phone: left empty, for the person
    expect(phone).toMatchObject({ text: '', status: 'no_answer' })
    expect(phone.note).toContain('Left for you to fill in')
    expect(contactPhone).toMatchObject({ text: '', status: 'no_answer' })
    // last year's answers are no candidates at all, in any wording of the field
    const texts = rows.flatMap((row: Body) => row.candidates.map((c: Body) => c.text))
    for (const old of ['+1 555 0100', 'Acme Learning', '2024-04-30'])
      expect(texts).not.toContain(old)
  })
})
