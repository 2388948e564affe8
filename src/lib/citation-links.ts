import type { Citation } from '../../contract/answers.ts'

/**
 * Where a cited source opens (issue 30): an answer of the organisation's in the knowledge base (a
 * Q&A item, `?item=`, or a completed questionnaire's row, `?row=`); a document on its file page,
 * at the cited page when there is one. Null when the source has no place of its own (evidence
 * pasted by a reviewer).
 */
export const knowledgeLink = (citation: Citation) =>
  citation.source === 'qa' && citation.id !== null
    ? `/knowledge-base?item=${citation.id}`
    : citation.kind === 'library' && citation.entry
      ? `/knowledge-base?row=${citation.entry}`
      : null

/** How much of a cited snippet the address carries to mark it on the file's page. */
const QUOTE_CHARS = 160

export const sourceLink = (citation: Citation) => {
  const row = knowledgeLink(citation)
  if (row) return row
  if (citation.source === 'file' && citation.id !== null) {
    // at the cited page, the cited words marked there (issue 39)
    const search = new URLSearchParams()
    const page = citation.location?.page
    if (page) search.set('page', String(page))
    const quote = citation.snippet.replace(/\s+/g, ' ').trim().slice(0, QUOTE_CHARS)
    if (quote) search.set('quote', quote)
    const query = search.toString()
    return `/repository/${citation.id}${query ? `?${query}` : ''}`
  }
  return null
}
