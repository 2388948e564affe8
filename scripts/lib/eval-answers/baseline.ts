import { cosine, leadingChoice, TfIdf } from '../../../server/answering/text.ts'
import { keyOf } from './data.ts'
import type { Library, Rows } from './inspect.ts'
import type { Prediction } from './score.ts'

/**
 * The baseline each protocol is printed beside: plain TF-IDF (lower-cased words, no synonyms, no
 * stemming), each question answered with the nearest library question's answer when its cosine
 * is 0.5 or more.
 */
export function baselineOf(library: Library, rows: Rows): Prediction[] {
  const space = new TfIdf()
  const plain = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []
  const vectors = library.entries.map((entry) => plain(entry.question))
  for (const v of vectors) space.add(v)
  const built = vectors.map((v) => space.vector(v))
  return rows.map((row): Prediction => {
    const vector = space.vector(plain(row.text))
    let best = -1
    let bestScore = 0
    built.forEach((candidate, index) => {
      const s = cosine(vector, candidate)
      if (s > bestScore) {
        bestScore = s
        best = index
      }
    })
    const entry = best >= 0 ? library.entries[best] : undefined
    const answered = Boolean(entry) && bestScore >= 0.5
    return {
      key: keyOf(row.ref, row.text),
      kind: 'library' as const,
      shape: 'none' as const,
      choice: answered && entry ? leadingChoice(entry.answer) : null,
      text: answered && entry ? entry.detail || entry.answer : '',
      confidence: bestScore,
      answered,
      hit5: null,
    }
  })
}
