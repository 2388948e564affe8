import { describe, expect, it } from 'vitest'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import { extractQuestions, normaliseId, splitLeadingId } from '../../../server/workbooks/extract.ts'
import { makeZip } from '../../fixtures/zip.ts'

describe('question extraction', () => {
  it('normalises question IDs, including spaced and starred ones', () => {
    expect(normaliseId('AIS- 02.2')).toBe('AIS-02.2')
    expect(normaliseId('A&A-01.1')).toBe('A&A-01.1')
    expect(normaliseId('HLAP-01*')).toBe('HLAP-01')
    expect(normaliseId('Answer')).toBeNull()
  })

  it('reads SIG-style and numbered IDs, and a number the question cell starts with', () => {
    expect(normaliseId('A.1.1')).toBe('A.1.1')
    expect(normaliseId('A.1.1.1')).toBe('A.1.1.1')
    expect(normaliseId('SL.12')).toBe('SL.12')
    expect(normaliseId('4.1.3.')).toBe('4.1.3')
    expect(normaliseId('12')).toBeNull()
    expect(normaliseId('Version 2.1')).toBeNull()
    expect(splitLeadingId('1.2 Do you encrypt data at rest?')).toEqual({
      id: '1.2',
      text: 'Do you encrypt data at rest?',
    })
    expect(splitLeadingId('A.1.1. Is there a security policy?')?.id).toBe('A.1.1')
    expect(splitLeadingId('Q12. Are backups tested?')).toEqual({
      id: '12',
      text: 'Are backups tested?',
    })
    expect(splitLeadingId('AIS-01.1: Are application security policies established?')?.id).toBe(
      'AIS-01.1',
    )
    // a number that is part of the sentence is not an ID
    expect(splitLeadingId('24 hours is our recovery time objective')).toBeNull()
    expect(splitLeadingId('Do you encrypt data?')).toBeNull()
  })

  it('finds SIG-style IDs, and numbered questions without an ID column; numbering restarts per tab', () => {
    const sig = {
      name: 'SIG Lite',
      rows: [
        ['Ques Num', 'Question/Request', 'Response', 'Additional Information'],
        ['A.1', 'Is there a risk assessment program that has been approved by management?', '', ''],
        ['A.1.1', 'Does the risk assessment program include a risk governance plan?', '', ''],
        ['A.1.1.1', 'Is the risk governance plan reviewed at least annually?', '', ''],
        ['B.1', 'Is there an information security policy?', '', ''],
      ],
    }
    expect(extractQuestions([sig]).map((q) => [q.id, q.row, q.questionColumn])).toEqual([
      ['A.1', 2, 1],
      ['A.1.1', 3, 1],
      ['A.1.1.1', 4, 1],
      ['B.1', 5, 1],
    ])
    const numbered = (name: string, topic: string) => ({
      name,
      rows: [
        [`${topic} questions`, 'Answer'],
        [`1.1 Do you have a documented ${topic} policy?`, ''],
        [`1.2 Is the ${topic} policy reviewed annually?`, ''],
        [`1.3 Who owns the ${topic} policy?`, ''],
      ],
    })
    const found = extractQuestions([
      numbered('Security', 'security'),
      numbered('Privacy', 'privacy'),
    ])
    expect(found.map((q) => `${q.sheet} ${q.id}: ${q.text}`)).toEqual([
      'Security 1.1: Do you have a documented security policy?',
      'Security 1.2: Is the security policy reviewed annually?',
      'Security 1.3: Who owns the security policy?',
      'Privacy 1.1: Do you have a documented privacy policy?',
      'Privacy 1.2: Is the privacy policy reviewed annually?',
      'Privacy 1.3: Who owns the privacy policy?',
    ])
    expect(found[0]).toMatchObject({ idColumn: 0, questionColumn: 0, answerColumn: 1 })
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

describe('answer cells and vocabularies', () => {
  const inline = (ref: string, text: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
  function workbook() {
    const questions = `<worksheet xmlns:x14="x14" xmlns:xm="xm"><sheetData>
      <row r="1">${inline('A1', 'ID')}${inline('B1', 'Question')}${inline('C1', 'Answer')}${inline('D1', 'Notes')}</row>
      <row r="2">${inline('A2', 'ENCR-01')}${inline('B2', 'Is data encrypted at rest?')}</row>
      <row r="3">${inline('A3', 'ENCR-02')}${inline('B3', 'Is data encrypted in transit?')}</row>
      <row r="4">${inline('A4', 'HOST-01')}${inline('B4', 'Where is the service hosted?')}</row>
      <row r="5">${inline('A5', 'NOTE-01')}${inline('B5', 'Describe your backup policy.')}</row>
    </sheetData>
    <dataValidations count="1"><dataValidation type="list" sqref="C2:C3"><formula1>yesno</formula1></dataValidation></dataValidations>
    <extLst><ext><x14:dataValidations><x14:dataValidation type="list"><x14:formula1><xm:f>'Hidden Lists'!$B$1:$B$3</xm:f></x14:formula1><xm:sqref>C4</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst></worksheet>`
    const lists = `<worksheet><sheetData>
      <row r="1">${inline('A1', 'Yes')}${inline('B1', 'AWS')}</row>
      <row r="2">${inline('A2', 'No')}${inline('B2', 'Azure')}</row>
      <row r="3">${inline('A3', 'N/A')}${inline('B3', 'On premises')}</row></sheetData></worksheet>`
    return makeZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      {
        name: 'xl/workbook.xml',
        data: Buffer.from(
          `<workbook xmlns:r="r"><sheets><sheet name="Questions" sheetId="1" r:id="rId1"/><sheet name="Hidden Lists" sheetId="2" state="hidden" r:id="rId2"/></sheets><definedNames><definedName name="yesno">'Hidden Lists'!$A$1:$A$3</definedName></definedNames></workbook>`,
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/></Relationships>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(questions) },
      { name: 'xl/worksheets/sheet2.xml', data: Buffer.from(lists) },
    ])
  }

  it('resolves lists from defined names and x14 validations on hidden sheets, and falls back to the Answer column', () => {
    const { sheets } = readWorkbook(workbook(), { fillMerged: true })
    expect(sheets.map((s) => [s.name, s.hidden])).toEqual([
      ['Questions', false],
      ['Hidden Lists', true],
    ])
    const found = extractQuestions(sheets.filter((s) => !s.hidden))
    expect(found.map((q) => [q.id, q.answerColumn, q.vocabulary])).toEqual([
      ['ENCR-01', 2, ['Yes', 'No', 'N/A']],
      ['ENCR-02', 2, ['Yes', 'No', 'N/A']],
      ['HOST-01', 2, ['AWS', 'Azure', 'On premises']],
      ['NOTE-01', 2, null],
    ])
  })

  it('finds Yes / No / Not Applicable mark columns (CAIQ v3 layout)', () => {
    const rows = [
      [
        'Question ID',
        'Consensus Assessment Questions',
        'Consensus Assessment Answers',
        '',
        '',
        'Notes',
      ],
      ['', '', 'Yes', 'No', 'Not Applicable', ''],
      ['AIS-01.1', 'Do you use industry standards?'],
      ['AIS-01.2', 'Do you use automated code analysis?'],
      ['AIS-01.3', 'Do you review code manually?'],
    ]
    const [first] = extractQuestions([{ name: 'CAIQ', rows }])
    expect(first?.markColumns).toEqual([
      { column: 2, label: 'Yes' },
      { column: 3, label: 'No' },
      { column: 4, label: 'Not Applicable' },
    ])
    expect(first?.answerColumn).toBeNull()
  })
})
