import type { Citation } from '../../contract/questionnaires.ts'
import type { LibraryEntry, PassageHit } from './types.ts'

/** A quote cut at a word, at most `max` characters. */
export const snippet = (text: string, max = 320) =>
  text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`

/** A library entry as a source: its question and answer, where it came from. */
export function citationsOf(entry: LibraryEntry): Citation[] {
  return [
    {
      source: entry.source === 'qa' ? 'qa' : 'file',
      kind: 'library',
      id: entry.source === 'qa' ? entry.id : entry.fileId,
      title: entry.title,
      snippet: snippet(
        `${entry.question} — ${[entry.answer, entry.detail].filter(Boolean).join('. ')}`,
      ),
      ...(entry.location ? { location: entry.location } : {}),
      ...(entry.source === 'file' ? { entry: entry.id } : {}),
    },
  ]
}

/** A passage as a source, quoting `text` from it. */
export const passageCitation = (passage: PassageHit, text: string): Citation => ({
  source: passage.source,
  kind: passage.library ? 'library' : 'document',
  id: passage.source === 'evidence' ? null : (passage.fileId ?? passage.id),
  title: passage.title,
  snippet: snippet(text),
  ...(passage.location ? { location: passage.location } : {}),
})
