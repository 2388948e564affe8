import { describe, expect, it } from 'vitest'
import { emphasisKey } from '../../../server/ingest/xlsx.ts'
import { analyseSheets, type SheetInput } from '../../../server/workbooks/analyse.ts'
import { isSectionOf } from '../../../server/workbooks/headings.ts'

/**
 * The rules that tell a section heading row from a question row, and find a tab's header, one at
 * a time on tabs written as rows (issue 38, item 3). Each test names the rule it checks.
 */

const texts = (sheet: SheetInput) =>
  analyseSheets([sheet])[0]?.questions.map((q) => [q.ref, q.text, q.section]) ?? []

describe('section heading rows', () => {
  it('knows a section number by the number of the row after it', () => {
    expect(isSectionOf('3', '3.1')).toBe(true)
    expect(isSectionOf('3.0', '3.1')).toBe(true)
    expect(isSectionOf('5.3', '5.3.1')).toBe(true)
    expect(isSectionOf('C', 'C.1')).toBe(true)
    expect(isSectionOf('2', '3')).toBe(false)
    expect(isSectionOf('3.0', '4.1')).toBe(false)
    expect(isSectionOf('1.0', '2.0')).toBe(false)
  })

  it('rule: a short row left unanswered in a tab whose rows are answered (an export) is a heading', () => {
    const rows = [
      ['Question', 'Response'],
      ['Risk Management', ''],
      ['Is there a risk register?', 'Yes'],
      ['Is risk reviewed by management?', 'Yes'],
      ['Vendor Name', 'Acme Learning'],
      ['Physical Security', ''],
      ['Are visitors escorted?', 'No'],
    ]
    expect(texts({ name: 'Export', rows })).toEqual([
      [null, 'Is there a risk register?', 'Risk Management'],
      [null, 'Is risk reviewed by management?', 'Risk Management'],
      [null, 'Vendor Name', 'Risk Management'],
      [null, 'Are visitors escorted?', 'Physical Security'],
    ])
  })

  it('rule: a short row without the dropdown the other rows offer is a heading; a short row with one is a question', () => {
    const rows = [
      ['Question', 'Answer'],
      ['Physical Security', ''],
      ['Are visitors escorted at all times?', ''],
      ['Is CCTV footage kept for 90 days?', ''],
      ['Data centre tier', ''],
      ['Describe your badge process.', ''],
    ]
    const validations = [{ sqref: 'B3:B5', source: '"Yes,No"', values: ['Yes', 'No'] }]
    expect(texts({ name: 'Lists', rows, validations })).toEqual([
      [null, 'Are visitors escorted at all times?', 'Physical Security'],
      [null, 'Is CCTV footage kept for 90 days?', 'Physical Security'],
      [null, 'Data centre tier', 'Physical Security'],
      [null, 'Describe your badge process.', 'Physical Security'],
    ])
  })

  it('rule: a row drawn bold where questions are not is a heading, a numbered bold field is not', () => {
    const rows = [
      ['ID', 'Question', 'Answer'],
      ['', 'Encryption', ''],
      ['1', 'Is data encrypted at rest?', ''],
      ['2', 'Vendor Name', ''],
      ['3', 'Is data encrypted in transit?', ''],
      ['4', 'Are keys rotated every year?', ''],
    ]
    const emphasis = new Set([emphasisKey(1, 1), emphasisKey(3, 1)])
    expect(texts({ name: 'Bold', rows, emphasis }).map(([ref, text]) => `${ref} ${text}`)).toEqual([
      '1 Is data encrypted at rest?',
      '2 Vendor Name',
      '3 Is data encrypted in transit?',
      '4 Are keys rotated every year?',
    ])
  })

  it('rule: a question cell merged across the answer column is a heading, an answer cell merged on its own is not', () => {
    const rows = [
      ['#', 'Question', 'Response', 'Comments'],
      ['', 'Hosting', 'Hosting', 'Hosting'],
      ['1', 'Company Name', 'Company Name', 'Company Name'],
      ['2', 'Where is the service hosted?', '', ''],
    ]
    const merges = ['B2:D2', 'C3:D3']
    expect(texts({ name: 'Merged', rows, merges })).toEqual([
      ['1', 'Company Name', 'Hosting'],
      ['2', 'Where is the service hosted?', 'Hosting'],
    ])
  })

  it('rule: a row whose answer cells repeat the column labels is a heading', () => {
    const rows = [
      ['Field', 'Response', 'Comments'],
      ['Company Legal Name', '', ''],
      ['Contact E-mail', '', ''],
      ['Service Hosting', 'Response', 'Comments'],
      ['Hosting provider', '', ''],
    ]
    expect(texts({ name: 'Labels', rows })).toEqual([
      [null, 'Company Legal Name', null],
      [null, 'Contact E-mail', null],
      [null, 'Hosting provider', 'Service Hosting'],
    ])
  })

  it('rule: a short title alone on its row among rows put as questions is a heading, unless the tab marks its headings otherwise; a tab of fields keeps them', () => {
    const questions = {
      name: 'Plain',
      rows: [
        ['Question', 'Answer'],
        ['Service Hosting'],
        ['Where is customer data stored?'],
        ['Is the service multi-tenant?'],
        ['Describe your hosting provider.'],
        ['Network Security'],
        ['Is traffic between services encrypted?'],
        ['Do you use a web application firewall?'],
      ],
    }
    expect(texts(questions).map(([, text, section]) => `${section}: ${text}`)).toEqual([
      'Service Hosting: Where is customer data stored?',
      'Service Hosting: Is the service multi-tenant?',
      'Service Hosting: Describe your hosting provider.',
      'Network Security: Is traffic between services encrypted?',
      'Network Security: Do you use a web application firewall?',
    ])
    const fields = {
      name: 'Fields',
      rows: [
        ['Question', 'Answer'],
        ['Company Legal Name'],
        ['Primary Contact'],
        ['Contact E-mail'],
        ['Date'],
        ['Describe the product in scope.'],
      ],
    }
    expect(texts(fields).map(([, text]) => text)).toEqual([
      'Company Legal Name',
      'Primary Contact',
      'Contact E-mail',
      'Date',
      'Describe the product in scope.',
    ])
  })
})

describe('header rows', () => {
  it("takes 'Question' over 'Question #' for the question column, and finds a header named by its answer column only", () => {
    const numbered = {
      name: 'Numbered',
      rows: [
        ['Question #', 'Question', 'Answer'],
        ['1', 'Vendor Name', ''],
        ['2', 'Do you encrypt backups?', ''],
      ],
    }
    const [tab] = analyseSheets([numbered])
    expect(tab?.mapping).toMatchObject({ id_column: 0, question_column: 1, answer_column: 2 })
    const controls = {
      name: 'Controls',
      rows: [
        ['Security review'],
        ['Ref', 'Security Control', 'Vendor Response', 'Comments'],
        ['1', 'Is multi-factor authentication enforced for administrators?', '', ''],
        ['2', 'Are backups encrypted and tested every quarter?', '', ''],
        ['3', 'How often is production access reviewed?', '', ''],
      ],
    }
    const [control] = analyseSheets([controls])
    expect(control?.mapping).toMatchObject({
      header_row: 2,
      id_column: 0,
      question_column: 1,
      answer_column: 2,
      comment_column: 3,
    })
    expect(control?.questions).toHaveLength(3)
  })

  it("reads no question from a tab that repeats another tab's question IDs (a report)", () => {
    const vendor = {
      name: 'Vendor',
      rows: [
        ['ID', 'Question', 'Answer'],
        ['ACCS-01', 'Do you enforce MFA?', ''],
        ['ACCS-02', 'Are accounts reviewed?', ''],
        ['ACCS-03', 'Are passwords hashed?', ''],
      ],
    }
    const report = {
      name: 'Analyst Report',
      rows: [
        ['Code', 'Reason for Question', 'Vendor Answer'],
        ['ACCS-01', 'MFA stops most account takeovers, so its absence matters.', ''],
        ['ACCS-02', 'Reviews find accounts left behind by people who left.', ''],
        ['ACCS-03', 'Hashing limits the harm of a leaked database.', ''],
      ],
    }
    const tabs = analyseSheets([vendor, report])
    expect(tabs.map((tab) => [tab.name, tab.questions.length])).toEqual([
      ['Vendor', 3],
      ['Analyst Report', 0],
    ])
  })
})
