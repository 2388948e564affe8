import { describe, expect, it } from 'vitest'
import { analyseSheets } from '../../../server/workbooks/analyse.ts'
import { FOUR_COLUMNS, SECTIONED_COLUMNS } from '../../fixtures/answer-rows.ts'

describe('analysis of tabs without question IDs', () => {
  it('reads a header row, numbered section headings and keeps short field questions', () => {
    const rows = [
      ['Supplier Security Questionnaire'],
      ['No.', 'Requirement', 'Vendor Response', 'Comments'],
      ['1', 'Access management', '', ''],
      ['1.1', 'Describe how user access is provisioned and removed.', '', ''],
      ['1.2', 'Is MFA enforced for remote access?', '', ''],
      ['2', 'Company name', '', ''],
      ['3', 'Data protection', '', ''],
      ['3.1', 'Is customer data encrypted at rest?', '', ''],
    ]
    const [tab] = analyseSheets([{ name: 'Sheet1', rows }])
    expect(tab?.mapping).toEqual(FOUR_COLUMNS)
    expect(tab?.mappingState).toBe('detected')
    expect(tab?.questions.map((q) => [q.ref, q.text, q.section])).toEqual([
      ['1.1', 'Describe how user access is provisioned and removed.', 'Access management'],
      ['1.2', 'Is MFA enforced for remote access?', 'Access management'],
      ['2', 'Company name', 'Access management'],
      ['3.1', 'Is customer data encrypted at rest?', 'Data protection'],
    ])
    expect(tab?.questions[0]?.target).toMatchObject({ type: 'cell', row: 4, column: 2, comment: 3 })
  })

  it('uses a confirmed mapping instead of detection, and asks when nothing reads as a questionnaire', () => {
    const rows = [
      ['Area', 'Statement', 'Reply'],
      ['Access', 'Badges are required in the office', ''],
      ['Network', 'Firewalls are reviewed monthly', ''],
    ]
    const [unsure] = analyseSheets([{ name: 'Statements', rows }])
    expect(unsure?.questions).toEqual([])
    expect(unsure?.mappingState).toBe('unsure')
    const [mapped] = analyseSheets([{ name: 'Statements', rows }], {
      Statements: SECTIONED_COLUMNS,
    })
    expect(mapped?.mappingState).toBe('confirmed')
    expect(mapped?.questions.map((q) => [q.text, q.section])).toEqual([
      ['Badges are required in the office', 'Access'],
      ['Firewalls are reviewed monthly', 'Network'],
    ])
  })
})

describe('Word questionnaires', () => {
  it('finds questions in table rows, typed numbers and Word list items, and fills them', async () => {
    const { makeDocx } = await import('../../fixtures/documents.ts')
    const { readQuestionnaireBuffer } = await import('../../../server/workbooks/read.ts')
    const { patchDocx, readDocx } = await import('../../../server/workbooks/docx.ts')
    const { DEFAULT_PARSE_LIMITS } = await import('../../../server/ingest/types.ts')
    const listItem = (text: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`
    const docx = makeDocx(
      [
        {
          table: [
            ['Question', 'Response'],
            ['Do you encrypt data in transit?', ''],
          ],
        },
        { paragraph: '2. Do you have a business continuity plan?' },
      ],
      (body) =>
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}${listItem('Do you run background checks on staff?')}${listItem('Company overview')}</w:body></w:document>`,
    )
    const { tabs } = await readQuestionnaireBuffer(
      docx,
      'rfp.docx',
      'docx',
      {},
      DEFAULT_PARSE_LIMITS,
    )
    expect(tabs[0]?.questions.map((q) => [q.ref, q.text, q.target?.type])).toEqual([
      [null, 'Do you encrypt data in transit?', 'docx_cell'],
      ['2', 'Do you have a business continuity plan?', 'docx_paragraph'],
      ['1', 'Do you run background checks on staff?', 'docx_paragraph'],
    ])
    const filled = patchDocx(new Uint8Array(docx), [
      { type: 'after_paragraph', paragraph: 1, value: '=cmd|calc' },
    ])
    const layout = readDocx(filled)
    // UP9: a formula-looking answer is neutralised in Word too
    expect(layout.paragraphs.map((p) => p.text)).toContain("'=cmd|calc")
  })
})
