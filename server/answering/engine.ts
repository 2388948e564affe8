import type { PassageLocation } from '../../contract/knowledge.ts'
import type { Citation } from '../../contract/questionnaires.ts'
import type { Database } from '../db/index.ts'
import { dot } from './embeddings.ts'
import {
  cosine,
  leadingChoice,
  PRACTICE_TERMS,
  SYNONYMS,
  sentences,
  TfIdf,
  terms,
  toVocabulary,
} from './text.ts'
import { tsLexeme } from './tsquery.ts'

/**
 * The library engine: answers a question from the organisation's own evidence and never invents.
 * 1. Library answers: approved Q&A items and the question/answer pairs of completed
 *    questionnaires in the repository, matched question to question (TF-IDF over terms with
 *    domain synonyms folded, plus bigrams). A strong match is reused and mapped onto the answer
 *    cell's vocabulary (Yes/No/N/A or any dropdown list).
 * 2. Otherwise an extractive answer: the sentences of the document passages (full-text search,
 *    ranks fused with data items) that best cover the question's terms, quoted with citations.
 * 3. Otherwise nothing, said plainly: status 'no answer', confidence 0.
 * Retrieval reads only the requesting organisation's rows (LL1, LL4).
 */

export interface LibraryEntry {
  source: 'qa' | 'file'
  /** The Q&A item, or the passage. */
  id: number
  fileId: number | null
  title: string
  question: string
  answer: string
  detail: string
  dropdown: string | null
  location: PassageLocation | null
}

export interface Candidate {
  text: string
  choice: string | null
  confidence: number
  citations: Citation[]
  /**
   * Set when the engine declines to pick (the organisation's own records disagree): why, for the
   * reviewer. Such a candidate is stored as 'no answer' with its sources; the answers it declined
   * to choose between follow it as candidates.
   */
  withheld?: string
  /** Why the engine gave this answer, where the reviewer should know before approving it. */
  reason?: string
}

export interface EngineAnswer {
  candidates: Candidate[]
  /** Why there is no answer; null when there are candidates. */
  note: string | null
}

export interface QuestionInput {
  text: string
  vocabulary: string[] | null
}

export interface PassageHit {
  id: number
  fileId: number | null
  source: 'file' | 'data' | 'evidence' | 'qa'
  title: string
  text: string
  location: PassageLocation | null
  rank: number
}

/** Why a Yes rests on a document rather than on an answer to this question. */
export const STATED =
  'Yes because a document states this practice. No answer of yours covers this question itself: check the quote before approving.'
export const CORROBORATED =
  'Yes because a document states this practice and you answered Yes to a related question (both cited). No answer of yours covers this question itself: check before approving.'

export const NO_EVIDENCE = 'No answer: the knowledge base holds no evidence for this question.'

/** Library matches below this similarity are not reused. */
const REUSE_FLOOR = 0.4
/**
 * Below this similarity a library match is a related question, not the same one: it may give its
 * answer as a No or a value, never as a Yes. A Yes claims a practice, and a claim needs the
 * question itself answered (or the practice stated in a document).
 */
const WEAK_MATCH = 0.5
/** From here a library match is a related question: it can corroborate a passage. */
const RELATED_FLOOR = 0.25
/** Matches this close to the best one, or above SAME_QUESTION, ask the same question: they vote. */
const PEER_WINDOW = 0.05
const SAME_QUESTION = 0.9
/**
 * When the records that answer the same question disagree and the commonest answer has less than
 * this share of them, the engine does not choose: the reviewer does, from the candidates.
 */
const MAJORITY = 2 / 3
/** A word the library does not know is read as the known word this close to it in trigrams. */
const SPELLING_FLOOR = 0.75
/** Shorter words are not corrected: one letter changes a short word into another word. */
const SPELLING_MIN = 7
/** Passage coverage (share of the question's weighted terms) needed for an extractive answer. */
const EXTRACT_FLOOR = 0.55
/** A question a Yes or a No answers ('Do you...', 'Is there...'), not 'How often...'. */
const YES_NO_QUESTION =
  /^\s*(\(.*?\)\s*)?(do|does|did|is|are|was|were|have|has|had|can|could|will|would|should|shall|may|must)\b/i
/**
 * The confidence of a Yes that rests on a document (stated, or corroborated by the organisation's
 * Yes about the practice): medium. On the evaluation runs these were right in every case seen, but
 * they are few, and they are inferences from documents rather than answers to the question.
 */
const AFFIRMED = 0.6
/** Coverage at which a passage stating the practice supports a Yes. */
const AFFIRM_FLOOR = 0.8

/**
 * Similarity to probability of being right, fitted on the evaluation protocols (reliability table
 * in the closing note of the answer engine issue): piecewise linear between these points.
 */
const CALIBRATION: [number, number][] = [
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

const DETAIL_LABEL =
  /^(additional information|additional info|comments?|notes?|explanation|details|justification|response details)\s*:\s*/i

/** The narrative beside a library answer, from the passage text of a questionnaire row. */
function detailOf(text: string) {
  for (const line of text.split('\n')) {
    if (DETAIL_LABEL.test(line)) {
      const value = line.replace(DETAIL_LABEL, '').trim()
      if (value && !/^n\/?a$/i.test(value)) return value
    }
  }
  // a plain question/answer row carries no narrative of its own
  return ''
}

const isChoiceWord = (text: string) =>
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
  /** Known terms by their first letter, for spelling correction; corrections made so far. */
  private readonly termsByInitial = new Map<string, { term: string; grams: Grams }[]>()
  private readonly corrections = new Map<string, string>()

  constructor(entries: LibraryEntry[]) {
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
const NARRATIVE_MIN = 40

/** What a library answer says beyond its Yes/No: the narrative, or a free-text answer. */
function narrativeOf(entry: LibraryEntry) {
  if (entry.detail) return entry.detail
  if (isChoiceWord(entry.answer)) return ''
  return entry.answer.replace(/^\s*(yes|no)\b[\s.,:;–—-]*/i, '')
}

const pairsOf = (words: string[]) => words.slice(1).map((word, i) => `${words[i]}_${word}`)

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

export async function loadLibrary(database: Database, orgId: number): Promise<Library> {
  const { pool } = database
  const [items, passages] = await Promise.all([
    pool.query<{
      id: string
      question: string
      answer: string
      dropdown_value: string | null
      source: string | null
    }>('select id, question, answer, dropdown_value, source from kb_qa_items where org_id = $1', [
      orgId,
    ]),
    pool.query<{
      id: string
      file_id: string
      name: string
      qa_question: string
      qa_answer: string
      text: string
      location: PassageLocation
    }>(
      `select p.id, p.file_id, f.name, p.qa_question, p.qa_answer, p.text, p.location
         from file_passages p join repository_files f on f.id = p.file_id and f.status = 'ready'
        where p.org_id = $1 and p.qa_question is not null and p.qa_answer is not null`,
      [orgId],
    ),
  ])
  const entries: LibraryEntry[] = [
    ...items.rows.map((row) => ({
      source: 'qa' as const,
      id: Number(row.id),
      fileId: null,
      title: row.source ? `Knowledge base: ${row.source}` : 'Knowledge base answer',
      question: row.question,
      answer: row.answer,
      detail: '',
      dropdown: row.dropdown_value,
      location: null,
    })),
    ...passages.rows.map((row) => {
      // 'Yes\n\nnarrative' from questionnaire ingestion; a label line in older passages
      const [answer, ...rest] = row.qa_answer.split(/\n\s*\n/)
      return {
        source: 'file' as const,
        id: Number(row.id),
        fileId: Number(row.file_id),
        title: row.name,
        question: row.qa_question,
        answer: (answer ?? '').trim(),
        detail: rest.join('\n\n').trim() || detailOf(row.text),
        dropdown: null,
        location: row.location,
      }
    }),
  ]
  return new Library(entries)
}

/** The question's words as one OR tsquery, with the other forms of any synonym it uses. */
async function passageQuery(database: Database, text: string) {
  const lower = text.toLowerCase()
  const extra: string[] = []
  for (const group of SYNONYMS) {
    const forms = group.slice(1)
    if (forms.some((form) => lower.includes(form)) || lower.includes(group[0] as string))
      extra.push(...forms.filter((form) => form.length > 3).slice(0, 4))
  }
  const { rows } = await database.pool.query<{ lexemes: string[] }>(
    "select tsvector_to_array(to_tsvector('english', $1)) as lexemes",
    [`${text} ${extra.join(' ')}`],
  )
  const lexemes = (rows[0]?.lexemes ?? []).slice(0, 10).map(tsLexeme)
  if (lexemes.length <= 2) return lexemes.join(' & ')
  // any two of the question's words together: a passage that shares one word is no evidence, and
  // a query of single words would match (and rank) most of a large corpus
  const pairs: string[] = []
  for (let i = 0; i < lexemes.length; i++)
    for (let j = i + 1; j < lexemes.length; j++) pairs.push(`(${lexemes[i]} & ${lexemes[j]})`)
  return pairs.join(' | ')
}

/** A document passage row (with its file's name) as a hit. */
export function filePassageHit(
  row: { id: string; file_id: string; name: string; text: string; location: PassageLocation },
  rank: number,
): PassageHit {
  return {
    id: Number(row.id),
    fileId: Number(row.file_id),
    source: 'file',
    title: row.name,
    text: row.text,
    location: row.location,
    rank,
  }
}

/** Passages ranked per search; more matches than this are cut before ranking. */
const CANDIDATES = 400

/** Document passages and data items for a question, ranks fused (reciprocal rank fusion). */
export async function searchPassages(
  database: Database,
  orgId: number,
  text: string,
  options: { limit?: number; fileIds?: number[] } = {},
): Promise<PassageHit[]> {
  const query = await passageQuery(database, text)
  if (!query) return []
  const limit = options.limit ?? 12
  const fileFilter = options.fileIds?.length ? 'and p.file_id = any($4::bigint[])' : ''
  const values: unknown[] = [orgId, query, limit]
  if (options.fileIds?.length) values.push(options.fileIds)
  const [files, data] = await Promise.all([
    database.pool.query<{
      id: string
      file_id: string
      name: string
      text: string
      location: PassageLocation
      rank: number
    }>(
      `with q as (select to_tsquery('english', $2) as query),
            candidates as (
              select p.id from file_passages p, q
               where p.org_id = $1 and p.tsv @@ q.query and p.qa_question is null ${fileFilter}
               limit ${CANDIDATES}
            )
       select p.id, p.file_id, f.name, p.text, p.location, ts_rank_cd(p.tsv, q.query, 1) as rank
         from candidates c join file_passages p on p.id = c.id
         join repository_files f on f.id = p.file_id and f.status = 'ready', q
        order by rank desc limit $3`,
      values,
    ),
    options.fileIds?.length
      ? Promise.resolve({ rows: [] })
      : database.pool.query<{ id: string; title: string; value: string; rank: number }>(
          `select d.id, d.title, d.value, ts_rank_cd(d.tsv, q, 1) as rank
             from kb_data_items d, to_tsquery('english', $2) q
            where d.org_id = $1 and d.tsv @@ q order by rank desc limit $3`,
          [orgId, query, limit],
        ),
  ])
  const fused = new Map<string, PassageHit & { fused: number }>()
  const add = (key: string, hit: PassageHit, position: number) => {
    const current = fused.get(key)
    const score = 1 / (60 + position)
    if (current) current.fused += score
    else fused.set(key, { ...hit, fused: score })
  }
  files.rows.forEach((row, position) => {
    add(`f${row.id}`, filePassageHit(row, row.rank), position)
  })
  data.rows.forEach((row, position) => {
    add(
      `d${row.id}`,
      {
        id: Number(row.id),
        fileId: null,
        source: 'data',
        title: row.title,
        text: `${row.title}: ${row.value}`,
        location: null,
        rank: row.rank,
      },
      position,
    )
  })
  return [...fused.values()].sort((a, b) => b.fused - a.fused).slice(0, limit)
}

const snippet = (text: string, max = 320) =>
  text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`

function libraryCandidate(
  question: QuestionInput,
  match: { entry: LibraryEntry; score: number },
): Candidate | null {
  const { entry } = match
  const vocabulary = question.vocabulary?.length ? question.vocabulary : null
  const raw = (entry.dropdown ?? entry.answer).trim()
  let choice: string | null = null
  let text: string
  if (vocabulary) {
    choice = toVocabulary(raw, vocabulary) ?? toVocabulary(entry.answer, vocabulary)
    // a related question's Yes is no claim about this one
    if (match.score < WEAK_MATCH && choice && leadingChoice(choice) === 'yes') choice = null
    // a library answer that fits none of the cell's values is not forced into one
    if (!choice && isChoiceWord(entry.answer)) return null
    text = entry.detail || (isChoiceWord(entry.answer) ? '' : entry.answer)
    // 'Yes. All data is encrypted' beside a Yes dropdown: the dropdown already says Yes
    if (choice && leadingChoice(text) === leadingChoice(choice))
      text = text
        .replace(/^\s*(yes|no|n\/?a|not applicable)\b[\s.,:;–—-]*/i, '')
        .trim()
        .replace(/^\p{Ll}/u, (first) => first.toUpperCase())
  } else if (match.score < WEAK_MATCH && leadingChoice(entry.answer) === 'yes') {
    // a related question's Yes is no claim about this one: its narrative alone, if any
    text = entry.detail
  } else {
    text =
      isChoiceWord(entry.answer) && entry.detail
        ? `${entry.answer.replace(/\.$/, '')}. ${entry.detail}`
        : entry.answer || entry.detail
  }
  if (!text && !choice) return null
  return {
    text,
    choice,
    confidence: calibrate(match.score),
    citations: citationsOf(entry),
  }
}

/** A library entry as a source: its question and answer, where it came from. */
function citationsOf(entry: LibraryEntry): Citation[] {
  return [
    {
      source: entry.source === 'qa' ? 'qa' : 'file',
      id: entry.source === 'qa' ? entry.id : entry.fileId,
      title: entry.title,
      snippet: snippet(
        `${entry.question} — ${[entry.answer, entry.detail].filter(Boolean).join('. ')}`,
      ),
      ...(entry.location ? { location: entry.location } : {}),
    },
  ]
}

/** How much of the question's weighted terms a passage holds (0-1), with its best sentences. */
function coverage(question: string, passage: string, space: TfIdf) {
  const wanted = [...new Set(terms(question))]
  if (!wanted.length) return { share: 0, best: [] as string[], denied: false }
  // 'physical access control and video surveillance to prevent unauthorized access': what is done
  // counts in full, the purpose it serves at half
  const purpose = PURPOSE.exec(question)
  const practice = purpose ? new Set(terms(question.slice(0, purpose.index))) : null
  const have = new Set(terms(passage))
  // a question that names a practice (access reviews, backups) is not answered by a passage that
  // never mentions it, however many of its other words the passage shares
  const named = wanted.filter((term) => PRACTICE_TERMS.has(term))
  if (named.length && !named.some((term) => have.has(term)))
    return { share: 0, best: [], denied: false }
  let total = 0
  let found = 0
  for (const term of wanted) {
    const weight = space.idf(term) * (practice && !practice.has(term) ? 0.5 : 1)
    total += weight
    if (have.has(term)) found += weight
  }
  const ranked = sentences(passage)
    // a question restated (a questionnaire template, a list of questions) is not evidence
    .filter(
      (sentence) => !sentence.trim().endsWith('?') && !/^\s*(question|order)\s*:/i.test(sentence),
    )
    .map((sentence) => {
      const words = new Set(terms(sentence))
      let hits = 0
      for (const term of wanted) if (words.has(term)) hits += space.idf(term)
      return { sentence, hits, negated: NEGATION.test(sentence) }
    })
    .filter((item) => item.hits > 0)
    // the sentences that say most of what is asked, weighted as coverage is; a sentence that
    // states the practice before one that says what is not done
    .sort((a, b) => Number(a.negated) - Number(b.negated) || b.hits - a.hits)
  const wantedSet = new Set(wanted)
  return {
    share: total ? found / total : 0,
    best: ranked.slice(0, 2).map((item) => item.sentence),
    // a sentence left out of the quote that denies what is asked ('we do not encrypt backups')
    denied: ranked.slice(2).some((item) => item.negated && deniesTerm(item.sentence, wantedSet)),
  }
}

function extractive(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  corroboration: { entry: LibraryEntry; score: number } | null = null,
): Candidate[] {
  const candidates: Candidate[] = []
  const usedSources = new Set<string>()
  const scored = passages
    .map((passage) => ({ passage, ...coverage(question.text, passage.text, space) }))
    .filter((item) => item.share >= EXTRACT_FLOOR && item.best.length)
    .sort((a, b) => b.share - a.share)
  for (const item of scored) {
    const sourceKey = `${item.passage.source}${item.passage.fileId ?? item.passage.id}`
    if (usedSources.has(sourceKey)) continue
    usedSources.add(sourceKey)
    const text = item.best.join(' ')
    // a passage that states the practice the question asks about, without a negation, supports
    // a Yes at low confidence (the reviewer sees the quote); it never supports a No
    // (or, from EXTRACT_FLOOR, when the organisation answered a related question Yes and none No)
    const yes = question.vocabulary?.find((value) => leadingChoice(value) === 'yes') ?? null
    const affirms =
      yes !== null &&
      YES_NO_QUESTION.test(question.text) &&
      candidates.length === 0 &&
      (item.share >= AFFIRM_FLOOR || corroboration !== null) &&
      !NEGATION.test(text) &&
      !item.denied
    const related = affirms && item.share < AFFIRM_FLOOR ? corroboration : null
    candidates.push({
      text,
      choice: affirms ? yes : null,
      ...(affirms ? { reason: related ? CORROBORATED : STATED } : {}),
      confidence: affirms ? AFFIRMED : Math.min(0.6, 0.15 + 0.5 * item.share),
      citations: [
        {
          source: item.passage.source,
          id: item.passage.source === 'evidence' ? null : (item.passage.fileId ?? item.passage.id),
          title: item.passage.title,
          snippet: snippet(text),
          ...(item.passage.location ? { location: item.passage.location } : {}),
        },
        ...(related ? citationsOf(related.entry) : []),
      ],
    })
    if (candidates.length >= 3) break
  }
  return candidates
}

/**
 * Whether a negation in the sentence bears on one of the question's terms: one of the four words
 * after it ('we do not encrypt backups'), not a clause away ('will not interfere with the ongoing
 * investigation').
 */
function deniesTerm(sentence: string, wanted: Set<string>) {
  const words = sentence
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
  return words.some(
    (word, index) =>
      (NEGATION_WORDS.has(word) || NEGATION_PAIRS.has(`${word} ${words[index + 1]}`)) &&
      words
        .slice(index + 1, index + 5)
        .some((next) => terms(next).some((term) => wanted.has(term))),
  )
}
const NEGATION_WORDS = new Set(
  'not no never none cannot cant dont doesnt isnt arent wont havent hasnt without unless neither nor'.split(
    ' ',
  ),
)
const NEGATION_PAIRS = new Set(['instead of', 'rather than'])

/** Where a question turns from the practice to its purpose ('... to prevent unauthorized access'). */
const PURPOSE =
  /\b(?:in order )?(?:to|so as to) (?:prevent|detect|protect|ensure|avoid|mitigate|reduce|minimi[sz]e|limit|stop|guard)\b/i

/** Words that deny or replace a practice ('instead of providing backups, customers export'). */
const NEGATION =
  /\b(not|no|never|none|cannot|can[’']t|don[’']t|doesn[’']t|isn[’']t|aren[’']t|won[’']t|haven[’']t|hasn[’']t|without|unless|neither|nor|instead of|rather than)\b/i

const candidateKey = (candidate: Candidate) =>
  `${candidate.choice ?? ''}\u001f${candidate.text.toLowerCase().replace(/\s+/g, ' ').slice(0, 200)}`

/** The source a library entry speaks for: one vote per file or Q&A item. */
const sourceOf = (entry: LibraryEntry) =>
  entry.source === 'qa' ? `qa${entry.id}` : `file${entry.fileId ?? entry.id}`

const choiceOf = (entry: LibraryEntry) => leadingChoice(entry.dropdown ?? entry.answer)

const CHOICE_LABEL = { yes: 'Yes', no: 'No', na: 'N/A' } as const

/**
 * The library matches that ask the same question, one per source, and how their Yes/No/N/A
 * answers split. The winner is the commonest answer (ties: the best match's).
 */
function vote(strong: { entry: LibraryEntry; score: number }[]) {
  const top = strong[0]
  if (!top) return null
  const bySource = new Map<string, { entry: LibraryEntry; score: number }>()
  for (const match of strong) {
    if (match.score < top.score - PEER_WINDOW && match.score < SAME_QUESTION) continue
    const key = sourceOf(match.entry)
    if (!bySource.has(key)) bySource.set(key, match)
  }
  const answering = [...bySource.values()].filter((match) => choiceOf(match.entry))
  // approved library answers are the organisation's current word; completed questionnaires are
  // its history: where the library answers the question, the library decides (a reviewer who
  // settled a split and saved the answer is not asked again)
  const curated = answering.filter((match) => match.entry.source === 'qa')
  const peers = curated.length ? curated : answering
  if (answering.length < 2) return null
  const counts = new Map<string, { count: number; first: number }>()
  peers.forEach((match, index) => {
    const key = choiceOf(match.entry) as string
    const current = counts.get(key) ?? { count: 0, first: index }
    current.count += 1
    counts.set(key, current)
  })
  const ranked = [...counts.entries()].sort(
    (a, b) => b[1].count - a[1].count || a[1].first - b[1].first,
  )
  const [winner] = ranked
  if (!winner) return null
  const tally = new Map<string, number>()
  for (const match of answering) {
    const choice = choiceOf(match.entry) as string
    tally.set(choice, (tally.get(choice) ?? 0) + 1)
  }
  return {
    peers,
    winner: winner[0],
    share: winner[1].count / peers.length,
    counts: ranked.map(([choice, { count }]) => ({ choice, count })),
    /** Every record that answers, curated or not: how many give each answer. */
    tally,
    answering: answering.length,
  }
}

/**
 * The confidence of an answer given by this share of the records that answer the same question
 * (s^k / (s^k + (1 - s)^k); 0.5 stays 0.5, a majority counts for more than its face value and a
 * dissent for less). On the evaluation runs (each HECVAT Lite answered from the other products'
 * files) 3 of 4 in agreement were right 87% of the time over five products (39 of 45) but 56% on
 * one of them: k = 1.15 puts 3 of 4 at 0.78, the top of the medium band, so that records that
 * disagree are still shown as worth a look; 7 of 8 reach high (0.90), a lone dissent 0.1-0.2.
 */
export function agreement(share: number): number {
  const k = 1.15
  const agree = share ** k
  return agree / (agree + (1 - share) ** k)
}

/** Up to three distinct candidates for a question, best first; none when there is no evidence. */
export function answerFromEvidence(
  question: QuestionInput,
  matches: { entry: LibraryEntry; score: number }[],
  passages: PassageHit[],
  space: TfIdf,
  /** The library's answers about the practice the question names (`Library.about`). */
  practice: { entry: LibraryEntry; score: number }[] = [],
): EngineAnswer {
  const candidates: Candidate[] = []
  const seen = new Set<string>()
  let strong = matches.filter((match) => match.score >= REUSE_FLOOR)
  // the same question answered in several files: the answer most of them give goes first, and
  // its confidence says how far they agree; when they are split, the reviewer chooses
  const split = vote(strong)
  if (split) {
    // the winning answer first, an approved library answer before a questionnaire's
    const chosen = strong
      .filter((match) => choiceOf(match.entry) === split.winner)
      .sort((a, b) => Number(b.entry.source === 'qa') - Number(a.entry.source === 'qa'))
    strong = [...chosen, ...strong.filter((match) => !chosen.includes(match))]
  }
  if (split && split.counts.length > 1) {
    if (split.share < MAJORITY) {
      const opposing = split.counts.map(({ choice }) =>
        strong.find((match) => choiceOf(match.entry) === choice),
      )
      const sides = split.counts
        .map(({ choice, count }) => `${count} answer ${CHOICE_LABEL[choice as 'yes']}`)
        .join(', ')
      candidates.push({
        text: '',
        choice: null,
        confidence: 0,
        withheld: `Your records disagree: of ${split.peers.length} that answer this question, ${sides}. Choose the candidate that is true for this questionnaire, or write the answer.`,
        citations: split.peers
          .slice(0, 6)
          .flatMap((match) => libraryCandidate(question, match)?.citations ?? []),
      })
      // one candidate per side, best match first
      strong = [
        ...opposing.filter((match): match is { entry: LibraryEntry; score: number } =>
          Boolean(match),
        ),
        ...strong,
      ]
    }
  }
  for (const match of strong) {
    const candidate = libraryCandidate(question, match)
    if (!candidate) continue
    const key = candidateKey(candidate)
    if (seen.has(key)) continue
    seen.add(key)
    // an answer carries the agreement of the records that hold the same question: the winner its
    // share of the votes, any other answer its share of all the records that answer
    const mine = split ? choiceOf(match.entry) : null
    if (split && mine) {
      const share =
        mine === split.winner ? split.share : (split.tally.get(mine) ?? 0) / split.answering
      if (share < 1) candidate.confidence = Math.min(candidate.confidence, agreement(share))
    }
    candidates.push(candidate)
    if (candidates.length >= 3) break
  }
  if (candidates.length < 3) {
    // the organisation's answers to related questions: a Yes among them, and no No, corroborates
    // a passage that states the practice
    // (related: a question close to this one, or one about the same practice; any No among them
    // and the practice is not taken as done)
    const related = matches.filter(
      (match) => match.score >= RELATED_FLOOR && match.score < WEAK_MATCH,
    )
    const relatedYes =
      practice.find((match) => choiceOf(match.entry) === 'yes') ??
      related.find((match) => choiceOf(match.entry) === 'yes') ??
      null
    const corroboration =
      candidates.length === 0 &&
      ![...related, ...practice].some((match) => choiceOf(match.entry) === 'no')
        ? relatedYes
        : null
    for (const candidate of extractive(question, passages, space, corroboration)) {
      const key = candidateKey(candidate)
      if (seen.has(key)) continue
      seen.add(key)
      candidates.push(candidate)
      if (candidates.length >= 3) break
    }
  }
  // the first candidate is the most likely one: library answers by strength, then passages
  return candidates.length ? { candidates, note: null } : { candidates: [], note: NO_EVIDENCE }
}

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

  constructor(hits: PassageHit[], vectors: (Float32Array | null)[] = []) {
    this.hits = hits
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
    return best.map(({ index, score }) => ({ ...(this.hits[index] as PassageHit), rank: score }))
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
    return best.map(({ index, score }) => ({ ...(this.hits[index] as PassageHit), rank: score }))
  }
}

/** The organisation's passages and data items, with their vectors from `embeddingModel` if any. */
export async function loadPassageIndex(database: Database, orgId: number, embeddingModel?: string) {
  const [files, data] = await Promise.all([
    database.pool.query<{
      id: string
      file_id: string
      name: string
      text: string
      location: PassageLocation
      embedding: number[] | null
    }>(
      `select p.id, p.file_id, f.name, p.text, p.location,
              case when $2::text is not null and p.embedding_model = $2 then p.embedding end as embedding
         from file_passages p join repository_files f on f.id = p.file_id and f.status = 'ready'
        where p.org_id = $1 and p.qa_question is null`,
      [orgId, embeddingModel ?? null],
    ),
    database.pool.query<{ id: string; title: string; value: string }>(
      'select id, title, value from kb_data_items where org_id = $1',
      [orgId],
    ),
  ])
  return new PassageIndex(
    [
      ...files.rows.map((row) => filePassageHit(row, 0)),
      ...data.rows.map((row) => ({
        id: Number(row.id),
        fileId: null,
        source: 'data' as const,
        title: row.title,
        text: `${row.title}: ${row.value}`,
        location: null,
        rank: 0,
      })),
    ],
    files.rows.map((row) => (row.embedding ? Float32Array.from(row.embedding.map(Number)) : null)),
  )
}
