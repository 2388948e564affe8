import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import { readDocx } from '../../../server/workbooks/docx.ts'
import { makeDocx, makePdf } from '../../fixtures/documents.ts'
import { makeQuestionnaireXlsx } from '../../fixtures/questionnaires.ts'
import { deflatedZeros, makeDisagreeingZip, makeZip } from '../../fixtures/zip.ts'
import { exported } from '../../support/exports.ts'
import { get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, questionnaireSteps } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })
const { member, upload, analysed, binary, answersOf } = questionnaireSteps(ctx)

// Exports: into the original file and as a basic table, and off the API process.

describe('exports', () => {
  it('writes answers, dropdown values and comments into the original workbook and nothing else', async () => {
    const user = await member()
    const source = await makeQuestionnaireXlsx({ custom: true })
    const q = await analysed(user.token, 'Vendor.xlsx', source)
    const rows = (await answersOf(user.token, q.id)).questions as Body[]
    await post(
      ctx,
      Q.answer.edit(rows[0].answer.id),
      { choice: 'Yes', text: 'AES-256 on every volume.' },
      user.token,
    )
    await post(
      ctx,
      Q.answer.edit(rows[4].answer.id),
      { choice: 'N/A', comment: 'No administrators.' },
      user.token,
    )
    await post(
      ctx,
      Q.answer.edit(rows[8].answer.id),
      { text: '=HYPERLINK("http://evil.test","click")', comment: 'See the runbook.' },
      user.token,
    )

    const none = await post(ctx, Q.checkFilledFile, { questionnaire_id: q.id }, user.token)
    expect(none.body).toEqual({
      exists: false,
      current: false,
      filled_file: null,
      approved_only_default: false,
    })
    expect(
      (await get(ctx, `${Q.downloadFilledFile}?questionnaire_id=${q.id}`, user.token)).status,
    ).toBe(404)

    const out = await exported(ctx, user.token, { questionnaire_id: q.id })
    expect(out.status).toBe(202)
    expect(out.run).toMatchObject({ status: 'done', progress: 100, error: null })
    expect(out.filled_file).toMatchObject({
      name: 'Vendor (filled).xlsx',
      format: 'original',
      answers_written: 3,
      current: true,
    })
    const file = await binary(Q.filledFileDownload(out.filled_file?.id as number), user.token)
    expect(file.status).toBe(200)
    const before = readWorkbook(source, { fillMerged: false })
    const after = readWorkbook(file.data, { fillMerged: false })
    const sheet = (name: string) => after.sheets.find((s) => s.name === name)
    expect(sheet('DATA Controls')?.rows[3]?.slice(2, 4)).toEqual([
      'Yes',
      'AES-256 on every volume.',
    ])
    expect(sheet('IAM Controls')?.rows[3]?.slice(2, 4)).toEqual(['N/A', 'No administrators.'])
    // UP9: the formula-looking answer is neutralised
    expect(sheet('Custom')?.rows[2]?.slice(1, 3)).toEqual([
      '\'=HYPERLINK("http://evil.test","click")',
      'See the runbook.',
    ])
    // hidden sheet, merges, validations and every other part unchanged
    expect(after.sheets.map((s) => [s.name, s.hidden, s.merges, s.validations])).toEqual(
      before.sheets.map((s) => [s.name, s.hidden, s.merges, s.validations]),
    )
    const a = unzipSync(new Uint8Array(source))
    const b = unzipSync(new Uint8Array(file.data))
    expect(Object.keys(b)).toEqual(Object.keys(a))
    const changed = Object.keys(a).filter(
      (name) =>
        Buffer.compare(Buffer.from(a[name] as Uint8Array), Buffer.from(b[name] as Uint8Array)) !==
        0,
    )
    expect(changed.sort()).toEqual([
      'xl/worksheets/sheet3.xml',
      'xl/worksheets/sheet4.xml',
      'xl/worksheets/sheet5.xml',
    ])
    const protectedSheet = Buffer.from(b['xl/worksheets/sheet4.xml'] as Uint8Array).toString()
    expect(protectedSheet).toContain('<sheetProtection')

    const check = await post(ctx, Q.checkFilledFile, { questionnaire_id: q.id }, user.token)
    expect(check.body).toMatchObject({ exists: true, current: true })
    await post(ctx, Q.answer.approve(rows[0].answer.id), { confirm_incomplete: true }, user.token)
    const stale = await get(ctx, `${Q.checkFilledFile}?questionnaire_id=${q.id}`, user.token)
    expect(stale.body).toMatchObject({ exists: true, current: false })
    const latest = await binary(`${Q.downloadFilledFile}?questionnaire_id=${q.id}`, user.token)
    expect(Buffer.compare(latest.data, file.data)).toBe(0)
  })

  it('exports the basic table as XLSX and CSV, and fills CSV and Word originals', async () => {
    const user = await member()
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        'ID;Question;Answer\r\nAC-01;Do you enforce strong passwords?;\r\nAC-02;Do you lock accounts after failed logins?;\r\nAC-03;Is single sign-on supported?;\r\n',
      ),
    ])
    const q = await analysed(user.token, 'access.csv', csv)
    const rows = (await answersOf(user.token, q.id)).questions as Body[]
    await post(ctx, Q.answer.edit(rows[1].answer.id), { text: 'Yes; after 5 attempts' }, user.token)
    const original = await exported(ctx, user.token, { questionnaire_id: q.id })
    const filled = await binary(
      Q.filledFileDownload(original.filled_file?.id as number),
      user.token,
    )
    expect([...filled.data.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(filled.data.toString('utf8').slice(1)).toBe(
      'ID;Question;Answer\r\nAC-01;Do you enforce strong passwords?;\r\nAC-02;Do you lock accounts after failed logins?;"Yes; after 5 attempts"\r\nAC-03;Is single sign-on supported?;\r\n',
    )

    const basicCsv = await exported(ctx, user.token, { questionnaire_id: q.id, format: 'csv' })
    expect(basicCsv.filled_file).toMatchObject({ format: 'csv', name: 'access - answers.csv' })
    const table = (
      await binary(Q.filledFileDownload(basicCsv.filled_file?.id as number), user.token)
    ).data.toString('utf8')
    expect(table).toContain(
      'Tab,ID,Section,Question,Answer,Value,Comment,Status,Confidence,Sources',
    )
    expect(table).toContain('AC-02')
    // the basic format is XLSX unless told
    const basicXlsx = await exported(
      ctx,
      user.token,
      { questionnaire_id: q.id },
      { path: Q.exportBasic },
    )
    expect(basicXlsx.filled_file?.format).toBe('xlsx')
    const workbook = readWorkbook(
      (await binary(Q.filledFileDownload(basicXlsx.filled_file?.id as number), user.token)).data,
      { fillMerged: false },
    )
    expect(workbook.sheets[0]?.rows[2]?.slice(1, 5)).toEqual([
      'AC-02',
      '',
      'Do you lock accounts after failed logins?',
      'Yes; after 5 attempts',
    ])

    const docx = makeDocx([
      {
        table: [
          ['Question', 'Response'],
          ['Do you encrypt data in transit?', ''],
          ['Describe your backups.', ''],
        ],
      },
      { paragraph: '3. Do you have a business continuity plan?' },
    ])
    const d = await analysed(user.token, 'rfp.docx', docx)
    const drows = (await answersOf(user.token, d.id)).questions as Body[]
    await post(
      ctx,
      Q.answer.edit(drows[0].answer.id),
      { text: 'TLS 1.2 or later everywhere.' },
      user.token,
    )
    await post(
      ctx,
      Q.answer.edit(drows[2].answer.id),
      { text: 'Yes, tested twice a year.' },
      user.token,
    )
    const out = await exported(ctx, user.token, { questionnaire_id: d.id })
    expect(out.filled_file).toMatchObject({ name: 'rfp (filled).docx', answers_written: 2 })
    const layout = readDocx(
      (await binary(Q.filledFileDownload(out.filled_file?.id as number), user.token)).data,
    )
    expect(layout.tables[0]?.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Question', 'Response'],
      ['Do you encrypt data in transit?', 'TLS 1.2 or later everywhere.'],
      ['Describe your backups.', ''],
    ])
    expect(layout.paragraphs.map((p) => p.text)).toEqual([
      '3. Do you have a business continuity plan?',
      'Yes, tested twice a year.',
    ])

    const pdf = await analysed(
      user.token,
      'q.pdf',
      await makePdf([['1. Do you perform background checks on staff?']]),
    )
    const refused = await post(ctx, Q.exportOriginal, { questionnaire_id: pdf.id }, user.token)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe(
      'A PDF questionnaire cannot be filled in place. Export it in the basic format instead.',
    )
    const basicPdf = await exported(ctx, user.token, { questionnaire_id: pdf.id, format: 'xlsx' })
    expect(basicPdf.run?.status).toBe('done')
  })
})

describe('export off the API process (issue 14 fix 1)', () => {
  const contentTypes =
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>'
  /** A workbook of `questions` questions and a large evidence sheet (about `evidenceMb` MB of XML). */
  function largeWorkbook(questions: number, evidenceMb: number) {
    const cell = (ref: string, text: string) =>
      `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
    const rows = [
      `<row r="1">${cell('A1', 'ID')}${cell('B1', 'Question')}${cell('C1', 'Answer')}</row>`,
    ]
    for (let i = 1; i <= questions; i++) {
      const r = i + 1
      rows.push(
        `<row r="${r}">${cell(`A${r}`, `GEN-${String(i).padStart(4, '0')}`)}${cell(`B${r}`, `Do you review control number ${i} of the security programme every year?`)}</row>`,
      )
    }
    const evidence: string[] = []
    const line = 'Evidence text kept by the customer beside the questions, untouched by export. '
    for (let r = 1, size = 0; size < evidenceMb * 1024 * 1024; r++) {
      const row = `<row r="${r}">${cell(`A${r}`, `${line}${r}`)}${cell(`B${r}`, `${r * 7919}`)}</row>`
      evidence.push(row)
      size += row.length
    }
    return makeZip([
      { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
      {
        name: 'xl/workbook.xml',
        data: Buffer.from(
          '<workbook xmlns:r="r"><sheets><sheet name="Questions" sheetId="1" r:id="rId1"/><sheet name="Evidence" sheetId="2" state="hidden" r:id="rId2"/></sheets></workbook>',
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/></Relationships>',
        ),
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: Buffer.from(`<worksheet><sheetData>${rows.join('')}</sheetData></worksheet>`),
      },
      {
        name: 'xl/worksheets/sheet2.xml',
        data: Buffer.from(`<worksheet><sheetData>${evidence.join('')}</sheetData></worksheet>`),
      },
    ])
  }

  it('refuses at upload a workbook whose central directory hides a part, and stores nothing', async () => {
    const user = await member()
    const real = unzipSync(new Uint8Array(largeWorkbook(3, 0)))
    const parts = Object.entries(real).map(([name, data]) => ({ name, data: Buffer.from(data) }))
    const hidden = {
      name: 'xl/worksheets/sheet3.xml',
      deflated: await deflatedZeros(32 * 1024 * 1024),
    }
    const res = await upload(
      user.token,
      'Crafted.xlsx',
      makeDisagreeingZip(parts, hidden, 'inside'),
    )
    expect(res.status).toBe(422)
    expect(res.body.error).toMatch(
      /^Crafted\.xlsx was not uploaded\. The file's table of contents does not match its contents/,
    )
    expect((await get(ctx, Q.list, user.token)).body).toEqual({ count: 0, results: [] })
  })

  it('health answers while a large export is being written', async () => {
    const user = await member()
    const q = await analysed(user.token, 'Large.xlsx', largeWorkbook(300, 40))
    const rows = (await answersOf(user.token, q.id)).questions as Body[]
    await post(ctx, Q.answer.edit(rows[0].answer.id), { text: 'Yes, every year.' }, user.token)
    let exporting = true
    const out = exported(ctx, user.token, { questionnaire_id: q.id }).finally(() => {
      exporting = false
    })
    // a health call due every 25 ms while the export runs, timed from when it was due: a blocked
    // event loop delays the sending as much as the answering
    const during: number[] = []
    const first = performance.now()
    for (let k = 1; exporting; k++) {
      const due = first + k * 25
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
      const health = await ctx.app.request(apiPath(paths.health))
      during.push(performance.now() - due)
      expect(health.status).toBe(200)
    }
    const result = await out
    expect(result.status, JSON.stringify(result.body)).toBe(202)
    expect(result.filled_file?.answers_written).toBe(1)
    // the API process was free the whole time: no health call waited on the export (on the main
    // thread the call sent while the workbook was rewritten waited well over a second), and the
    // typical one answered within 100 ms (the budget; npm run bench prints the figures)
    expect(during.length).toBeGreaterThanOrEqual(3)
    during.sort((a, b) => a - b)
    expect(during[Math.floor(during.length / 2)]).toBeLessThan(100)
    expect(during.at(-1)).toBeLessThan(500)
  }, 60_000)
})
