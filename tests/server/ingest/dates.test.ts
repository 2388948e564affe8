import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { propertiesDate, statedInRows } from '../../../server/ingest/index.ts'
import { makeXlsx } from '../../fixtures/documents.ts'

const now = new Date('2026-11-26T12:00:00Z')

describe('the date a completed questionnaire states (issue 28)', () => {
  it('reads a date row, as a question/answer pair or as text, and nothing ambiguous or impossible', () => {
    expect(
      statedInRows([{ text: '', qa: { question: 'Date', answer: '2024-10-04' } }], now),
    ).toEqual(new Date('2024-10-04T00:00:00Z'))
    expect(
      statedInRows([{ text: 'Date completed:\nAnswer: 4 October 2024\nID: Q-1' }], now),
    ).toEqual(new Date('2024-10-04T00:00:00Z'))
    // a question about dates is not the questionnaire's date
    expect(
      statedInRows(
        [{ text: '', qa: { question: 'What date was your last audit?', answer: '2024-01-01' } }],
        now,
      ),
    ).toBeNull()
    // day/month order unknown, in the future, or not a date: not read
    for (const answer of ['10/04/2024', '2031-01-01', 'soon', '45123'])
      expect(statedInRows([{ text: '', qa: { question: 'Date', answer } }], now)).toBeNull()
  })

  it('falls back to the document properties of an Office file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-dates-'))
    const file = path.join(dir, 'q.xlsx')
    writeFileSync(file, await makeXlsx([{ question: 'Do you scan images?', answer: 'Yes' }]))
    const day = await propertiesDate(file)
    expect(day).not.toBeNull()
    expect(Math.abs(Date.now() - (day as Date).getTime())).toBeLessThan(2 * 86_400_000)
    const text = path.join(dir, 'notes.txt')
    writeFileSync(text, 'not a zip')
    expect(await propertiesDate(text)).toBeNull()
  })
})
