import { describe, expect, it } from 'vitest'
import type { Citation } from '../../contract/answers.ts'
import { quoteRange } from '../../src/components/marked-quote.tsx'
import { sourceLink } from '../../src/lib/citation-links.ts'

describe('a cited source opens at its words (issue 39)', () => {
  it('carries the page and the cited words to the file’s page', () => {
    const citation = {
      source: 'file',
      id: 5,
      kind: 'document',
      title: 'Policy.pdf',
      snippet: 'Backups are  encrypted with AES-256.',
      location: { page: 3 },
    } as unknown as Citation
    const href = sourceLink(citation) ?? ''
    const url = new URL(href, 'http://x')
    expect(url.pathname).toBe('/repository/5')
    expect(url.searchParams.get('page')).toBe('3')
    expect(url.searchParams.get('quote')).toBe('Backups are encrypted with AES-256.')
  })

  it('finds the words whatever their spacing or case, or by their first words when cut short', () => {
    const text = 'Intro.\nAll backups are\nencrypted with AES-256 nightly.'
    expect(quoteRange(text, 'backups are encrypted with aes-256')).toEqual([11, 45])
    expect(
      quoteRange(text, 'All backups are encrypted with AES-256 nightly and more words here…'),
    ).toEqual([7, 45])
    expect(quoteRange(text, 'Nothing like it')).toBeNull()
    expect(quoteRange(text, null)).toBeNull()
  })
})
