import { lookedFor, withClosest } from './abstention.ts'
import { AGED_CEILING, aged, conflictReason, newestOf, withinCeiling } from './age.ts'
import { calibrated, kindOfReason } from './calibration.ts'
import { citationsOf, passageCitation } from './cite.ts'
import {
  AFFIRM_FLOOR,
  AFFIRMED,
  calibrate,
  EXTRACT_FLOOR,
  isChoiceWord,
  type Library,
  MAJORITY,
  PEER_WINDOW,
  RELATED_FLOOR,
  REUSE_FLOOR,
  SAME_QUESTION,
  WEAK_MATCH,
  YES_NO_QUESTION,
} from './library.ts'
import { partsOf, shapeOf } from './parts.ts'
import { practicesOf } from './practices.ts'
import { asksOfFlaw, PARTLY_STATED_CAP, unstatedQualifiers } from './qualifiers.ts'
import { nearestQuotes } from './quotes.ts'
import { asQuote } from './quoting.ts'
import {
  doneAsAsked,
  inheritedPractices,
  isFrameTerm,
  namedPractices,
  partlyStated,
  practiceAnswer,
} from './stated.ts'
import { asksOfProvider, isQuestion, saysWhatIsDone, statedIn } from './statements.ts'
import { dataItemsOf, sameField, submissionAnswer, submissionField } from './submission.ts'
import {
  deniesTerms,
  isNegated,
  leadingChoice,
  PRACTICE_TERMS,
  PURPOSE,
  sentences,
  type TfIdf,
  terms,
  toVocabulary,
} from './text.ts'
import { transferAnswer } from './transfer.ts'
import {
  type Candidate,
  CORROBORATED,
  type EngineAnswer,
  type LibraryEntry,
  NO_EVIDENCE,
  type PassageHit,
  type QuestionInput,
  STATED,
  sourceOf,
} from './types.ts'

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
  return aged(
    { text, choice, confidence: calibrate(match.score), citations: citationsOf(entry) },
    entry,
    question.asOf ?? new Date(),
  )
}

/** How much of the question's weighted terms a passage holds (0-1), with its best sentences. */
function coverage(question: string, passage: string, space: TfIdf, practices: string[] = []) {
  const wanted = [...new Set(terms(question))]
  if (!wanted.length) return { share: 0, best: [] as string[], denied: false }
  // 'physical access control and video surveillance to prevent unauthorized access': what is done
  // counts in full, the purpose it serves at half
  const purpose = PURPOSE.exec(question)
  const practice = purpose ? new Set(terms(question.slice(0, purpose.index))) : null
  const have = new Set(terms(passage))
  const ofProvider = asksOfProvider(question)
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
    // whole sentences, quoted from their claim
    .flatMap((sentence) => asQuote(sentence) ?? [])
    // a question restated (a questionnaire template, a list of questions) is not evidence
    // and a requirement, an option, a definition or a pointer elsewhere says nothing done
    .filter(
      (sentence) =>
        !isQuestion(sentence) &&
        !/^\s*(question|order)\s*:/i.test(sentence) &&
        saysWhatIsDone(sentence) &&
        !POINTS_ELSEWHERE.test(sentence),
    )
    .map((sentence) => {
      const list = terms(sentence)
      const words = new Set(list)
      let hits = 0
      for (const term of wanted) if (words.has(term)) hits += space.idf(term)
      // a question about a practice (the vocabulary) is quoted from sentences that name it: a
      // shared word ('reviewed annually') is not a shared practice
      const names =
        !practices.length ||
        statedIn(sentence, list, ofProvider).some((id) => practices.includes(id))
      // and a sentence that shares only the question's frame ('reviewed annually') says nothing
      // of what it asks about
      const about = wanted.some((term) => !isFrameTerm(term) && words.has(term))
      return { sentence, hits: names && about ? hits : 0, negated: isNegated(sentence) }
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
    denied: ranked
      .slice(2)
      .some((item) => item.negated && deniesTerms(item.sentence, wantedSet, 4)),
  }
}

/** A sentence that sends the reader elsewhere ('Refer to ISO 27001 annex A', 'please see ...'). */
const POINTS_ELSEWHERE =
  /\b(?:please )?(?:see|refer to)\b|\bfor more (?:detail|information)\b|https?:\/\//i

/**
 * A form field rather than a question: a label of a word or two of its own ('Date', 'Product
 * Name', 'Vendor Hosting Regions'), neither asked ('...?') nor an instruction ('Describe ...').
 */
const FIELD_TERMS = 3
const INSTRUCTION =
  /^\s*(?:please\s+)?(?:describe|explain|list|provide|state|give|specify|indicate|detail|outline|summari[sz]e|identify|attach|share)\b/i
const isFormField = (text: string) =>
  !text.includes('?') &&
  !INSTRUCTION.test(text) &&
  new Set(terms(text).filter((term) => !isFrameTerm(term))).size < FIELD_TERMS

function extractive(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  corroboration: { entry: LibraryEntry; score: number } | null = null,
  /** The organisation answered No about the practice: no passage turns that into a Yes. */
  contested = false,
): Candidate[] {
  const candidates: Candidate[] = []
  // a form field ('Date', 'Product Name', 'Vendor Hosting Regions') is answered by the
  // organisation's own record of it, never by a passage that happens to share its words
  if (isFormField(question.text)) return candidates
  const usedSources = new Set<string>()
  const named = namedPractices(question.text, question.previous)
  const scored = passages
    .map((passage) => ({
      passage,
      ...coverage(question.text, passage.text, space, named),
    }))
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
      !asksOfFlaw(question.text) &&
      candidates.length === 0 &&
      !contested &&
      (item.share >= AFFIRM_FLOOR || corroboration !== null) &&
      !isNegated(text) &&
      !item.denied &&
      // how often (and that it is tested) is said of the practice in the quote itself
      doneAsAsked(question.text, terms(text))
    // a Yes/No question is answered Yes from a passage or not at all: its words quoted without a
    // choice are a lead for the reviewer (cited when nothing answers), not an answer
    if (!affirms && yes !== null && YES_NO_QUESTION.test(question.text)) continue
    const related = affirms && item.share < AFFIRM_FLOOR ? corroboration : null
    // a qualifier asked (automated, measured, independent, protected) and not in the quote: partly
    // stated, never High, and said in words
    const unstated = affirms ? unstatedQualifiers(question.text, [text]) : []
    const named = unstated.length ? namedPractices(question.text, question.previous) : []
    const reason = unstated.length ? partlyStated(named, unstated) : related ? CORROBORATED : STATED
    candidates.push({
      text,
      choice: affirms ? yes : null,
      ...(affirms ? { reason } : {}),
      confidence: affirms
        ? unstated.length
          ? Math.min(AFFIRMED, PARTLY_STATED_CAP)
          : AFFIRMED
        : Math.min(0.6, 0.15 + 0.5 * item.share),
      citations: [
        passageCitation(item.passage, text),
        ...(related ? citationsOf(related.entry) : []),
      ],
    })
    if (candidates.length >= 3) break
  }
  return candidates
}

/**
 * A Yes or No from document sentences, with the question's parts and the quoted sentence that
 * states each (what the reviewer checks, and what a language model is asked to confirm).
 */
function withParts(question: QuestionInput, candidate: Candidate): Candidate | null {
  const kind = kindOfReason(candidate.reason)
  if (!candidate.choice || kind === 'library' || kind === 'transferred') return candidate
  const sentences = candidate.citations
    .filter((citation) => citation.kind === 'document')
    .map((citation) => citation.snippet)
  const parts = partsOf(question.text, sentences, question.previous)
  if (!parts.length) return candidate
  if (kind === 'denied') return { ...candidate, parts }
  // a Yes whose quoted sentences do not state the practice itself is not given; one that states
  // the practice but not everything asked of it (documented, how often, tested, automated, ...)
  // is partly stated, never High, and says which part no sentence states
  if (parts.some((part) => part.kind === 'practice' && !part.sentence)) return null
  const unstated = parts.filter((part) => part.kind !== 'practice' && !part.sentence)
  if (!unstated.length || kind === 'partial') return { ...candidate, parts }
  const named = parts.filter((part) => part.kind === 'practice').map((part) => part.label)
  return {
    ...candidate,
    parts,
    reason: partlyStated(
      named.map((label) => label.replaceAll(' ', '-')),
      unstated.map((part) => part.label),
    ),
    confidence: Math.min(PARTLY_STATED_CAP, candidate.confidence - 0.2),
  }
}

const candidateKey = (candidate: Candidate) =>
  `${candidate.choice ?? ''}\u001f${candidate.text.toLowerCase().replace(/\s+/g, ' ').slice(0, 200)}`

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
  if (answering.length < 2) return null
  // the library's own answers disagree: the one reviewed last is its current word (issue 28)
  const newest =
    new Set(curated.map((match) => choiceOf(match.entry))).size > 1 ? newestOf(curated) : null
  if (newest) {
    const winner = choiceOf(newest.entry) as string
    const tally = new Map<string, number>()
    for (const match of answering) {
      const choice = choiceOf(match.entry) as string
      tally.set(choice, (tally.get(choice) ?? 0) + 1)
    }
    const label = (entry: LibraryEntry) => CHOICE_LABEL[choiceOf(entry) as 'yes']
    return {
      peers: [newest],
      winner,
      share: 1,
      counts: [{ choice: winner, count: 1 }],
      tally,
      answering: answering.length,
      conflict: {
        entry: newest.entry,
        reason: conflictReason(
          { entry: newest.entry, choice: label(newest.entry) },
          curated
            .filter((match) => choiceOf(match.entry) !== winner)
            .map((match) => ({ entry: match.entry, choice: label(match.entry) })),
        ),
      },
    }
  }
  const peers = curated.length ? curated : answering
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
    conflict: null as { entry: LibraryEntry; reason: string } | null,
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
  /** The whole library, for answers about the same practice in other words. */
  library: Library | null = null,
): EngineAnswer {
  // a field that describes the submission (its date, the vendor's name, the contact): from the
  // organisation's data items or left to fill in, never another questionnaire's row at High
  const field = submissionField(question)
  if (field) {
    const rows = matches.filter(
      (match) => match.score >= REUSE_FLOOR && sameField(field, match.entry.question),
    )
    const others = rows.flatMap((match) => libraryCandidate(question, match) ?? [])
    return submissionAnswer(question, field, dataItemsOf(library, passages), others)
  }
  // a question that refers back ('Are the policies and procedures reviewed annually?') says too
  // little to match on its own words: only answers about the practice it inherits, or the same
  // question, count
  const inherited = inheritedPractices(question)
  if (inherited) {
    const about = (match: { entry: LibraryEntry; score: number }) =>
      match.score >= SAME_QUESTION ||
      practicesOf(match.entry.question).some((id) => inherited.includes(id))
    matches = matches.filter(about)
    practice = practice.filter(about)
  }
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
      // the library's newest answer where its answers disagree
      .sort(
        (a, b) =>
          Number(b.entry === split.conflict?.entry) - Number(a.entry === split.conflict?.entry),
      )
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
    // the newest of the library's disagreeing answers: used, never High, and it says so
    if (split?.conflict?.entry === match.entry) {
      candidate.reason = split.conflict.reason
      candidate.ceiling = Math.min(candidate.ceiling ?? 1, AGED_CEILING)
    }
    candidates.push(candidate)
    if (candidates.length >= 3) break
  }
  // no answer of the question itself: the organisation's answers about the same practice, in scope
  const moved = candidates.length === 0 && library ? transferAnswer(question, library, space) : null
  if (moved) {
    seen.add(candidateKey(moved))
    candidates.push(moved)
  }
  if (candidates.length < 3) {
    // the organisation's answers to related questions: a Yes among them, and no No, corroborates
    // a passage that states the practice
    // (related: a question close to this one, or one about the same practice; any No among them
    // and the practice is not taken as done)
    const related = matches.filter(
      (match) => match.score >= RELATED_FLOOR && match.score < WEAK_MATCH,
    )
    // (about the practice the question names, when it names one: a Yes about backups does not
    // corroborate a passage about network reviews)
    const named = namedPractices(question.text, question.previous)
    const samePractice = (match: { entry: LibraryEntry }) =>
      !named.length || practicesOf(match.entry.question).some((id) => named.includes(id))
    const relatedYes =
      practice.find((match) => choiceOf(match.entry) === 'yes' && samePractice(match)) ??
      related.find((match) => choiceOf(match.entry) === 'yes' && samePractice(match)) ??
      null
    // the organisation's own No about the practice: a document's Yes does not overrule it
    const contested = [...related, ...practice].some((match) => choiceOf(match.entry) === 'no')
    const corroboration = candidates.length === 0 && !contested ? relatedYes : null
    // a document sentence that states (or denies) the practice the question names, in the scope it asks
    const stated =
      candidates.length === 0 || moved ? practiceAnswer(question, passages, space) : null
    const fromDocuments = [
      ...(stated && !(contested && stated.choice && leadingChoice(stated.choice) === 'yes')
        ? [stated]
        : []),
      ...extractive(question, passages, space, stated ? null : corroboration, contested),
    ]
    for (const candidate of fromDocuments) {
      const key = candidateKey(candidate)
      if (seen.has(key)) continue
      seen.add(key)
      candidates.push(candidate)
      if (candidates.length >= 3) break
    }
  }
  // the first candidate is the most likely one: library answers by strength, then passages
  const shape = shapeOf(question.text, question.previous)
  const given = candidates.flatMap((candidate) => {
    const read = withParts(question, candidate)
    return read ? [withinCeiling(calibrated(read, shape))] : []
  })
  if (given.length) return { candidates: given, note: null }
  // no answer: what was looked for, and the nearest passages that speak of the practice, cited
  // for the reviewer who writes the answer
  const note = lookedFor(question, space) ?? NO_EVIDENCE
  const nearest = nearestQuotes(question, passages, space, library)
  if (!nearest) return { candidates: [], note }
  const { closest, citations } = nearest
  const lead = { text: '', choice: null, confidence: 0, citations }
  const withheld = withClosest(note, closest, citations.length > 1)
  return { candidates: [{ ...lead, withheld }], note: null }
}
