import { describe, expect, it } from 'vitest'
import { analyseSheets } from '../../../server/questionnaires/analyse.ts'

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
    expect(tab?.mapping).toEqual({
      header_row: 2,
      id_column: 0,
      question_column: 1,
      answer_column: 2,
      comment_column: 3,
      section_column: null,
    })
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
      Statements: {
        header_row: 1,
        id_column: null,
        question_column: 1,
        answer_column: 2,
        comment_column: null,
        section_column: 0,
      },
    })
    expect(mapped?.mappingState).toBe('confirmed')
    expect(mapped?.questions.map((q) => [q.text, q.section])).toEqual([
      ['Badges are required in the office', 'Access'],
      ['Firewalls are reviewed monthly', 'Network'],
    ])
  })
})
