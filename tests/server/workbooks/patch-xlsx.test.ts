import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import { neutralise, patchWorkbook } from '../../../server/workbooks/patch-xlsx.ts'
import { makeXlsx } from '../../fixtures/documents.ts'

describe('writing answers into the original workbook', () => {
  it('patches only the answer cells and keeps every other part of the package', async () => {
    const original = await makeXlsx([
      { question: 'Is data encrypted at rest?', answer: '' },
      { question: 'Do you run penetration tests?', answer: '' },
    ])
    const { buffer, skipped } = patchWorkbook(original, [
      { sheet: 'Questions', row: 4, column: 2, value: 'Yes' },
      { sheet: 'Questions', row: 5, column: 3, value: 'Yearly, by <an> outside firm & reported' },
      { sheet: 'Questions', row: 9, column: 2, value: 'A new row below the table' },
      { sheet: 'Questions', row: 6, column: 1, value: 'over the formula' },
    ])
    expect(skipped).toEqual(['Questions!B6'])
    const before = readWorkbook(original, { fillMerged: false })
    const after = readWorkbook(buffer, { fillMerged: false })
    const sheet = after.sheets[0]
    expect(sheet?.rows[3]?.[2]).toBe('Yes')
    expect(sheet?.rows[4]?.[3]).toBe('Yearly, by <an> outside firm & reported')
    expect(sheet?.rows[8]?.[2]).toBe('A new row below the table')
    // the formula, the merged title, the hidden sheet and every other cell are as they were
    expect(sheet?.rows[5]?.[1]).toBe(before.sheets[0]?.rows[5]?.[1])
    expect(after.sheets.map((s) => [s.name, s.hidden])).toEqual(
      before.sheets.map((s) => [s.name, s.hidden]),
    )
    expect(sheet?.merges).toEqual(before.sheets[0]?.merges)
    expect(sheet?.rows[0]).toEqual(before.sheets[0]?.rows[0])
    const a = unzipSync(new Uint8Array(original))
    const b = unzipSync(new Uint8Array(buffer))
    expect(Object.keys(b)).toEqual(Object.keys(a))
    for (const name of Object.keys(a)) {
      if (name === 'xl/worksheets/sheet1.xml') continue
      expect(
        Buffer.compare(Buffer.from(a[name] as Uint8Array), Buffer.from(b[name] as Uint8Array)),
        name,
      ).toBe(0)
    }
  })

  it('UP9: values a spreadsheet would run as formulas get an apostrophe', async () => {
    for (const value of ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutralise(value)).toBe(`'${value}`)
    }
    expect(neutralise('Yes')).toBe('Yes')
    const original = await makeXlsx([{ question: 'Q?', answer: '' }])
    const { buffer } = patchWorkbook(original, [
      { sheet: 'Questions', row: 4, column: 2, value: '=1+1' },
    ])
    expect(readWorkbook(buffer, { fillMerged: false }).sheets[0]?.rows[3]?.[2]).toBe("'=1+1")
  })
})
