import { describe, expect, it } from 'vitest'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import { extractQuestions, normaliseId } from '../../../server/workbooks/extract.ts'
import { makeZip } from '../../fixtures/zip.ts'

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
