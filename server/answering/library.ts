import { PassageIndex } from './passage-index.ts'
import { practicesOf } from './practices.ts'
import type { ProductScope } from './products.ts'
import { cosine, PRACTICE_TERMS, TfIdf, terms } from './text.ts'
import type { LibraryEntry, PassageHit } from './types.ts'
import { sourceOf } from './types.ts'

/** Library matches below this similarity are not reused. */
export const REUSE_FLOOR = 0.4
/**
 * Below this similarity a library match is a related question, not the same one: it may give its
 * answer as a No or a value, never as a Yes. A Yes claims a practice, and a claim needs the
 * question itself answered (or the practice stated in a document).
 */
export const WEAK_MATCH = 0.5
/** From here a library match is a related question: it can corroborate a passage. */
export const RELATED_FLOOR = 0.25
/** Matches this close to the best one, or above SAME_QUESTION, ask the same question: they vote. */
export const PEER_WINDOW = 0.05
export const SAME_QUESTION = 0.9
/**
 * When the records that answer the same question disagree and the commonest answer has less than
 * this share of them, the engine does not choose: the reviewer does, from the candidates.
 */
export const MAJORITY = 2 / 3
/** A word the library does not know is read as the known word this close to it in trigrams. */
export const SPELLING_FLOOR = 0.75
/** Shorter words are not corrected: one letter changes a short word into another word. */
export const SPELLING_MIN = 7
/** Passage coverage (share of the question's weighted terms) needed for an extractive answer. */
export const EXTRACT_FLOOR = 0.55
/** A question a Yes or a No answers ('Do you...', 'Is there...'), not 'How often...'. */
export const YES_NO_QUESTION =
  /^\s*(\(.*?\)\s*)?(do|does|did|is|are|was|were|have|has|had|can|could|will|would|should|shall|may|must)\b/i
/**
 * The confidence of a Yes that rests on a document (stated, or corroborated by the organisation's
 * Yes about the practice): medium. On the evaluation runs these were right in every case seen, but
 * they are few, and they are inferences from documents rather than answers to the question.
 */
export const AFFIRMED = 0.6
/** Coverage at which a passage stating the practice supports a Yes. */
export const AFFIRM_FLOOR = 0.8

/**
 * Similarity to probability of being right, fitted on the evaluation protocols (reliability table
 * in the closing note of the answer engine issue): piecewise linear between these points.
 */
export const CALIBRATION: [number, number][] = [
  [0.5, 0.5],
  [0.6, 0.62],
  [0.7, 0.78],
  [0.8, 0.88],
  [0.9, 0.95],
  [1, 0.98],
]

export function calibrate(score: number): number {
  if (score <= (CALIBRATION[0] as [number, number])[0])
    return (CALIBRATION[0] as [number, number])[1] * (score / 0.5)
  for (let i = 1; i < CALIBRATION.length; i++) {
    const [x1, y1] = CALIBRATION[i] as [number, number]
    const [x0, y0] = CALIBRATION[i - 1] as [number, number]
    if (score <= x1) return y0 + ((score - x0) / (x1 - x0)) * (y1 - y0)
  }
  return (CALIBRATION[CALIBRATION.length - 1] as [number, number])[1]
}

export const DETAIL_LABEL =
  /^(additional information|additional info|comments?|notes?|explanation|details|justification|response details)\s*:\s*/i

/** The narrative beside a library answer, from the passage text of a questionnaire row. */
export function detailOf(text: string) {
  for (const line of text.split('\n')) {
    if (DETAIL_LABEL.test(line)) {
      const value = line.replace(DETAIL_LABEL, '').trim()
      if (value && !/^n\/?a$/i.test(value)) return value
    }
  }
  // a plain question/answer row carries no narrative of its own
  return ''
}

export const isChoiceWord = (text: string) =>
  /^(yes|no|n\/?a|not applicable|true|false|partial(ly)?|y|n)\.?$/i.test(text.trim())

/** An organisation's library in memory: entries with their TF-IDF vectors. */
export class Library {
  readonly entries: LibraryEntry[]
  readonly space = new TfIdf()
  private readonly pairSpace = new TfIdf()
  private readonly vectors: Map<string, number>[]
  private readonly pairVectors: Map<string, number>[]
  private readonly byTerm = new Map<string, number[]>()
  private narrativeIndex: PassageIndex | null = null
  /** Entries by the set of practices their question names (sorted ids), made when first asked. */
  private practiceIndex: Map<string, number[]> | null = null
  /** Known terms by their first letter, for spelling correction; corrections made so far. */
  private readonly termsByInitial = new Map<string, { term: string; grams: Grams }[]>()
  private readonly corrections = new Map<string, string>()

  /**
   * The organisation's data items (titled facts: its name, its contacts), as passages: what a
   * field that describes the submission is filled from (submission.ts).
   */
  readonly data: PassageHit[]

  /**
   * The product the questionnaire it answers is for, and the repository files of other products
   * (issue 38, products.ts); null when the questionnaire names no product.
   */
  productScope: ProductScope | null = null

  /** The organisation's own names: its registered name, its products' names and aliases (issue 38). */
  ownNames: string[] = []

  constructor(entries: LibraryEntry[], data: PassageHit[] = []) {
    this.data = data
    // analyst copies repeat a vendor's rows: one entry per question and answer in a source
    const seen = new Set<string>()
    this.entries = entries.filter((entry) => {
      // cached formula results and placeholders are not answers
      if (/^(\d+(\.\d+)?|#n\/a|#ref!|-+|\.+|tbd)$/i.test(entry.answer.trim()) && !entry.detail)
        return false
      // within one source: the same answer in two files is two records that agree
      const key = `${sourceOf(entry)}\u001f${entry.question.toLowerCase().replace(/\s+/g, ' ')}\u001f${entry.answer.toLowerCase()}\u001f${entry.detail.slice(0, 80)}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    const words = this.entries.map((entry) => terms(entry.question))
    const pairs = words.map(pairsOf)
    for (const list of words) this.space.add(list)
    for (const list of pairs) this.pairSpace.add(list)
    this.vectors = words.map((list) => this.space.vector(list))
    this.pairVectors = pairs.map((list) => this.pairSpace.vector(list))
    words.forEach((list, index) => {
      for (const term of new Set(list)) {
        const ids = this.byTerm.get(term) ?? []
        ids.push(index)
        this.byTerm.set(term, ids)
      }
    })
  }

  get size() {
    return this.entries.length
  }

  /**
   * The answer text of library entries (their narratives), searchable like document passages: an
   * approved answer to another question may state what this one asks about.
   */
  narratives(): PassageIndex {
    if (!this.narrativeIndex) {
      const hits: PassageHit[] = []
      for (const entry of this.entries) {
        // another product's narrative is not evidence for this one (issue 38, products.ts)
        if (entry.otherProduct) continue
        const text = narrativeOf(entry)
        if (text.length < NARRATIVE_MIN) continue
        hits.push({
          id: entry.id,
          fileId: entry.fileId,
          source: entry.source,
          title: entry.title,
          text,
          location: entry.location,
          rank: 0,
          library: true,
        })
      }
      this.narrativeIndex = new PassageIndex(hits)
    }
    return this.narrativeIndex
  }

  /** The term itself when the library knows it, else the known term it is a misspelling of. */
  private spelled(term: string): string {
    if (term.length < SPELLING_MIN || /\d/.test(term) || this.byTerm.has(term)) return term
    const known = this.corrections.get(term)
    if (known !== undefined) return known
    if (!this.termsByInitial.size) {
      for (const candidate of this.byTerm.keys()) {
        if (candidate.length < SPELLING_MIN - 1 || /\d/.test(candidate)) continue
        const bucket = this.termsByInitial.get(candidate[0] as string) ?? []
        bucket.push({ term: candidate, grams: trigrams(candidate) })
        this.termsByInitial.set(candidate[0] as string, bucket)
      }
    }
    const grams = trigrams(term)
    let best = term
    let bestScore = SPELLING_FLOOR
    for (const candidate of this.termsByInitial.get(term[0] as string) ?? []) {
      if (Math.abs(candidate.term.length - term.length) > 2) continue
      const score = trigramCosine(grams, candidate.grams)
      if (score > bestScore) {
        bestScore = score
        best = candidate.term
      }
    }
    this.corrections.set(term, best)
    return best
  }

  /**
   * The closest library questions, best first. The score is mostly word overlap (TF-IDF cosine
   * over terms) with a fifth from adjacent pairs, so that word order counts a little. A word the
   * library does not know is read as the known word closest to it in character trigrams (a typo
   * or another spelling: 'accomodate' is 'accommodate').
   */
  match(question: string, k = 16): { entry: LibraryEntry; score: number }[] {
    const list = terms(question).map((term) => this.spelled(term))
    const candidates = new Set<number>()
    for (const term of list) for (const index of this.byTerm.get(term) ?? []) candidates.add(index)
    return this.scored(list, candidates, 0.2).slice(0, k)
  }

  /**
   * The library entries about a practice the question names (incident response, MFA, backups:
   * the practice groups of the synonym table), best match first: what the organisation said
   * about that practice elsewhere.
   */
  about(question: string, k = 16): { entry: LibraryEntry; score: number }[] {
    const list = terms(question).map((term) => this.spelled(term))
    const candidates = new Set<number>()
    for (const term of list)
      if (PRACTICE_TERMS.has(term))
        for (const index of this.byTerm.get(term) ?? []) candidates.add(index)
    return this.scored(list, candidates, 0).slice(0, k)
  }

  /** The entries whose question names exactly these practices (the practice vocabulary). */
  withPractices(ids: string[]): LibraryEntry[] {
    if (!this.practiceIndex) {
      this.practiceIndex = new Map()
      this.entries.forEach((entry, index) => {
        const named = practicesOf(entry.question)
        if (!named.length) return
        const key = [...named].sort().join(' ')
        const list = this.practiceIndex?.get(key) ?? []
        list.push(index)
        this.practiceIndex?.set(key, list)
      })
    }
    const key = [...ids].sort().join(' ')
    return (this.practiceIndex.get(key) ?? []).map((index) => this.entries[index] as LibraryEntry)
  }

  /**
   * The entries whose question names these practices and more ('a documented policy for firewall
   * change requests' names firewalls and change management): a Yes to one states each practice it
   * names; a No says nothing about any one of them.
   */
  withMorePractices(ids: string[]): LibraryEntry[] {
    if (!ids.length) return []
    this.withPractices(ids)
    const out: LibraryEntry[] = []
    for (const [key, indexes] of this.practiceIndex ?? []) {
      const named = key.split(' ')
      if (named.length > ids.length && ids.every((id) => named.includes(id)))
        for (const index of indexes) out.push(this.entries[index] as LibraryEntry)
    }
    return out
  }

  /** Similarity of a question's terms to the given entries, best first, above `floor`. */
  private scored(list: string[], candidates: Set<number>, floor: number) {
    const vector = this.space.vector(list)
    const pairVector = this.pairSpace.vector(pairsOf(list))
    const scored: { entry: LibraryEntry; score: number }[] = []
    for (const index of candidates) {
      const words = cosine(vector, this.vectors[index] as Map<string, number>)
      const order = pairVector.size
        ? cosine(pairVector, this.pairVectors[index] as Map<string, number>)
        : words
      const score = 0.8 * words + 0.2 * order
      if (score > floor) scored.push({ entry: this.entries[index] as LibraryEntry, score })
    }
    return scored.sort((a, b) => b.score - a.score)
  }
}

/** Narratives shorter than this ('Yes, annually.') say too little to quote on their own. */
export const NARRATIVE_MIN = 40

/** What a library answer says beyond its Yes/No: the narrative, or a free-text answer. */
export function narrativeOf(entry: LibraryEntry) {
  if (entry.detail) return entry.detail
  if (isChoiceWord(entry.answer)) return ''
  return entry.answer.replace(/^\s*(yes|no)\b[\s.,:;–—-]*/i, '')
}

export const pairsOf = (words: string[]) => words.slice(1).map((word, i) => `${words[i]}_${word}`)

type Grams = Map<string, number>

/** Character trigrams of a text's words (lower case, letters and digits), as counts. */
export function trigrams(text: string): Grams {
  const grams: Grams = new Map()
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = `  ${word} `
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = padded.slice(i, i + 3)
      grams.set(gram, (grams.get(gram) ?? 0) + 1)
    }
  }
  return grams
}

export function trigramCosine(a: Grams, b: Grams): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (const [gram, count] of a) {
    na += count * count
    dot += count * (b.get(gram) ?? 0)
  }
  for (const count of b.values()) nb += count * count
  return na && nb ? dot / Math.sqrt(na * nb) : 0
}
