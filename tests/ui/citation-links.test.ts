import { describe, expect, test } from 'vitest'
import type { Citation } from '../../contract/answers.ts'
import { sourceLink } from '../../src/lib/citation-links.ts'

/** Issue 30: source cards could not be opened; each now opens where it is. */
describe('sourceLink', () => {
  const base: Citation = {
    source: 'file',
    id: 4,
    title: 'Policy.pdf',
    snippet: 'Backups are encrypted.',
  }
  test('a document opens on its file page, at the cited page', () => {
    expect(sourceLink(base)).toBe('/repository/4')
    expect(sourceLink({ ...base, location: { page: 7 } } as Citation)).toBe('/repository/4?page=7')
  })
  test('a library answer opens in the knowledge base: a Q&A item, or a completed questionnaire’s row', () => {
    expect(sourceLink({ ...base, source: 'qa', id: 12, kind: 'library' })).toBe(
      '/knowledge-base?item=12',
    )
    expect(sourceLink({ ...base, kind: 'library', entry: 33 } as Citation)).toBe(
      '/knowledge-base?row=33',
    )
  })
  test('evidence a reviewer pasted has no place of its own', () => {
    expect(sourceLink({ ...base, source: 'evidence', id: null } as Citation)).toBeNull()
  })
})
