import { describe, expect, it } from 'vitest'
import { DEFAULT_PARSE_LIMITS } from '../../../server/ingest/types.ts'
import { basicTable, fillOriginal } from '../../../server/workbooks/fill.ts'

/**
 * UP9 and issue 14: every CSV Quire writes neutralises a cell that a spreadsheet would run as a
 * formula (a leading ') and quotes it, whatever the file's separator, so that no reader that
 * splits, trims or re-parses the line can bring the formula back.
 */

const decode = (data: Uint8Array) =>
  Buffer.from(data)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
const hostile = ['=HYPERLINK("http://evil.test","x")', '+1+2', '-3+4', '@SUM(A1)', '\t=1']

describe('CSV exports quote formula-like cells', () => {
  for (const delimiter of [',', ';', '\t', '|']) {
    it(`fills a customer's CSV separated by ${JSON.stringify(delimiter)}`, () => {
      const source = Buffer.from(
        [['ID', 'Question', 'Answer'], ...hostile.map((_, i) => [`Q-${i}`, `Question ${i}?`, ''])]
          .map((line) => line.join(delimiter))
          .join('\r\n'),
      )
      const out = decode(
        fillOriginal(
          source,
          {
            kind: 'csv',
            writes: hostile.map((value, i) => ({ row: i + 2, column: 2, value })),
          },
          DEFAULT_PARSE_LIMITS,
        ),
      )
      const lines = out.trimEnd().split('\r\n')
      expect(lines[0]).toBe(['ID', 'Question', 'Answer'].join(delimiter))
      hostile.forEach((value, i) => {
        const cell = `"'${value.replace(/"/g, '""')}"`
        expect(lines[i + 1]).toBe([`Q-${i}`, `Question ${i}?`, cell].join(delimiter))
      })
    })
  }

  it('writes the basic table with every formula-like cell neutralised and quoted', async () => {
    const out = decode(
      await basicTable({
        format: 'csv',
        header: ['Question', 'Answer'],
        lines: hostile.map((value) => ['Plain question?', value]),
      }),
    )
    const lines = out.trimEnd().split('\r\n')
    expect(lines[0]).toBe('Question,Answer')
    hostile.forEach((value, i) => {
      expect(lines[i + 1]).toBe(`Plain question?,"'${value.replace(/"/g, '""')}"`)
    })
  })
})
