import { dot } from './embeddings.ts'
import { PartyBook } from './parties.ts'
import { terms } from './text.ts'

import type { PassageHit } from './types.ts'

/**
 * Passages and data items of an organisation in memory, for a generation job: BM25 over the same
 * terms as question matching (synonyms folded), so that a thousand questions search 50,000
 * passages without a database round trip each. Loaded once per job.
 */
export class PassageIndex {
  private readonly hits: PassageHit[]
  private readonly postings = new Map<string, number[]>()
  private readonly lengths: number[]
  private readonly average: number
  /** BM25 length normalisation per passage: 1.2 * (0.25 + 0.75 * length / average). */
  private readonly norms: Float64Array
  private scores = new Float64Array(0)
  private matched = new Uint8Array(0)
  /** Each passage's vector from the embedding model, when one is configured. */
  private readonly vectors: (Float32Array | null)[]

  /** The parties its passages speak of, read on the first question that asks (parties.ts). */
  private readonly parties: PartyBook

  constructor(hits: PassageHit[], vectors: (Float32Array | null)[] = []) {
    this.hits = hits
    this.parties = new PartyBook(hits)
    this.vectors = vectors
    this.lengths = new Array(hits.length)
    let total = 0
    hits.forEach((hit, index) => {
      const list = terms(hit.text)
      this.lengths[index] = list.length
      total += list.length
      const counts = new Map<string, number>()
      for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1)
      for (const [term, count] of counts) {
        let posting = this.postings.get(term)
        if (!posting) {
          posting = []
          this.postings.set(term, posting)
        }
        posting.push(index, count)
      }
    })
    this.average = hits.length ? total / hits.length : 1
    this.norms = Float64Array.from(
      this.lengths,
      (length) => 1.2 * (0.25 + (0.75 * length) / this.average),
    )
  }

  get size() {
    return this.hits.length
  }

  get hasVectors() {
    return this.vectors.some(Boolean)
  }

  /** The passages closest to a question's vector (dot product of unit vectors), best first. */
  nearest(vector: Float32Array, limit = 12): PassageHit[] {
    const best: { index: number; score: number }[] = []
    this.vectors.forEach((candidate, index) => {
      if (!candidate) return
      const score = dot(vector, candidate)
      if (best.length < limit || score > (best[best.length - 1] as { score: number }).score) {
        best.push({ index, score })
        best.sort((a, b) => b.score - a.score)
        if (best.length > limit) best.pop()
      }
    })
    return best.map(({ index, score }) => ({
      ...(this.hits[index] as PassageHit),
      rank: score,
      parties: this.parties,
    }))
  }

  search(question: string, limit = 12): PassageHit[] {
    const wanted = [...new Set(terms(question))]
    const n = this.hits.length
    if (this.scores.length !== n) {
      this.scores = new Float64Array(n)
      this.matched = new Uint8Array(n)
    }
    const { scores, matched } = this
    const touched: number[] = []
    for (const term of wanted) {
      const posting = this.postings.get(term)
      if (!posting) continue
      const df = posting.length / 2
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
      for (let i = 0; i < posting.length; i += 2) {
        const index = posting[i] as number
        const tf = posting[i + 1] as number
        const norm = this.norms[index] as number
        if (matched[index] === 0) touched.push(index)
        scores[index] = (scores[index] as number) + (idf * tf * 2.2) / (tf + norm)
        matched[index] = (matched[index] as number) + 1
      }
    }
    // as in the database search: a passage sharing one word with the question is no evidence
    const need = Math.min(2, wanted.length)
    const best: { index: number; score: number }[] = []
    for (const index of touched) {
      const score = scores[index] as number
      if ((matched[index] as number) >= need) {
        if (best.length < limit) {
          best.push({ index, score })
          if (best.length === limit) best.sort((a, b) => b.score - a.score)
        } else if (score > (best[limit - 1] as { score: number }).score) {
          best[limit - 1] = { index, score }
          best.sort((a, b) => b.score - a.score)
        }
      }
      scores[index] = 0
      matched[index] = 0
    }
    best.sort((a, b) => b.score - a.score)
    return best.map(({ index, score }) => ({
      ...(this.hits[index] as PassageHit),
      rank: score,
      parties: this.parties,
    }))
  }
}
