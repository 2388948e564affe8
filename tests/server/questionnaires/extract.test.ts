import { describe, expect, it } from 'vitest'
import { extractQuestions, normaliseId } from '../../../server/questionnaires/extract.ts'

describe('question extraction', () => {
  it('normalises question IDs, including spaced and starred ones', () => {
    expect(normaliseId('AIS- 02.2')).toBe('AIS-02.2')
    expect(normaliseId('A&A-01.1')).toBe('A&A-01.1')
    expect(normaliseId('HLAP-01*')).toBe('HLAP-01')
    expect(normaliseId('Answer')).toBeNull()
  })

  it('finds the ID and question columns, skips instruction and log tabs, and counts an ID once', () => {
    const vendor = {
      name: 'Vendor Response',
      rows: [
        ['Questionnaire v1'],
        ['ID', 'Question', 'Answer', 'Notes'],
        ['Access control'],
        ['ACCS-01', 'Do you enforce MFA for administrators?', '', ''],
        ['ACCS-02', 'Describe how access is reviewed.', '', ''],
        ['ACCS-03', 'Vendor Name', '', ''],
        ['DATA-01', 'Is data encrypted at rest?', '', ''],
      ],
    }
    const analyst = {
      name: 'Analyst Copy',
      rows: [['ACCS-01', 'Do you enforce MFA for administrators?', 'Yes']],
    }
    const changelog = {
      name: 'Change Log',
      rows: [
        ['Version', 'Control', 'Change'],
        ['1.1', 'ACCS-09', 'Spelling of security'],
        ['1.1', 'DATA-07', 'Spelling of services'],
        ['1.2', 'NETW-03', 'Reworded'],
      ],
    }
    const found = extractQuestions([vendor, analyst, changelog])
    expect(found.map((q) => q.id)).toEqual(['ACCS-01', 'ACCS-02', 'ACCS-03', 'DATA-01'])
    expect(found[0]).toMatchObject({
      sheet: 'Vendor Response',
      row: 4,
      idColumn: 0,
      questionColumn: 1,
    })
  })

  it('takes the question column over a control text column between ID and question (CAIQ v3 layout)', () => {
    const rows = [
      [
        'Domain',
        'Control ID',
        'Question ID',
        'Control Specification',
        'Consensus Assessment Questions',
      ],
      [
        'Application Security',
        'AIS-01',
        'AIS-01.1',
        'Applications shall be designed securely.',
        'Do you use industry standards?',
      ],
      ['', '', 'AIS-01.2', '', 'Do you use automated code analysis?'],
      [
        '',
        'AIS-02',
        'AIS- 02.2',
        'Customer access requirements shall be addressed.',
        'Are all requirements addressed?',
      ],
    ]
    const found = extractQuestions([{ name: 'CAIQ', rows }])
    expect(found.map((q) => [q.id, q.text])).toEqual([
      ['AIS-01.1', 'Do you use industry standards?'],
      ['AIS-01.2', 'Do you use automated code analysis?'],
      ['AIS-02.2', 'Are all requirements addressed?'],
    ])
  })
})
