import { citationsOf, passageCitation } from './cite.ts'
import { doneAsAsked, isFrameTerm } from './framing.ts'
import { AFFIRM_FLOOR, AFFIRMED, EXTRACT_FLOOR, YES_NO_QUESTION } from './library.ts'
import { namedPractices } from './named-practices.ts'
import { partlyStated } from './partial.ts'
import { asksOfFlaw, PARTLY_STATED_CAP, unstatedQualifiers } from './qualifiers.ts'
import { asQuote } from './quoting.ts'
import { asksOfProvider, isQuestion, saysWhatIsDone, statedIn } from './statements.ts'
import {
  deniesTerms,
  isNegated,
  leadingChoice,
  PRACTICE_TERMS,
  PURPOSE,
  sentences,
  type TfIdf,
  terms,
} from './text.ts'
import { asThirdParty } from './third-party.ts'
import {
  type Candidate,
  CORROBORATED,
  type LibraryEntry,
  type OtherParty,
  type PartyReader,
  type PassageHit,
  type QuestionInput,
  STATED,
} from './types.ts'

/**
 * Kinds `stated` and `corroborated`, from the passages that best cover a question's words: the
 * sentences of a passage that say most of what is asked, quoted whole. A Yes/No question is
 * answered Yes from them only when they state the practice without a negation (from AFFIRM_FLOOR
 * of the question's words, or from EXTRACT_FLOOR when the organisation answered a related
 * question Yes: corroborated), and as often as asked; otherwise they are leads, not answers. A
 * form field is never answered from a passage.
 */

/** How much of the question's weighted terms a passage holds (0-1), with its best sentences. */
function coverage(
  question: string,
  passage: string,
  space: TfIdf,
  practices: string[] = [],
  /** Whose practice a sentence of the passage states (null: the organisation's). */
  whose: ((sentence: string) => OtherParty | null) | null = null,
): { share: number; best: string[]; denied: boolean; party?: OtherParty } {
  const wanted = [...new Set(terms(question))]
  if (!wanted.length) return { share: 0, best: [] as string[], denied: false }
  // 'physical access control and video surveillance to prevent unauthorized access': what is done
  // counts in full, the purpose it serves at half
  const purpose = PURPOSE.exec(question)
  const practice = purpose ? new Set(terms(question.slice(0, purpose.index))) : null
  const have = new Set(terms(passage))
  // a question about the hosting provider is answered by what the provider does; any other by
  // the organisation's sentences before another party's
  const ofProvider = asksOfProvider(question)
  const partyOf = ofProvider ? null : whose
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
    .map((item) => ({ ...item, party: partyOf?.(item.sentence) ?? null }))
    // the sentences that say most of what is asked, weighted as coverage is; a sentence that
    // states the practice before one that says what is not done; the organisation's first
    .sort((a, b) => Number(a.negated) - Number(b.negated) || b.hits - a.hits)
  const wantedSet = new Set(wanted)
  const best = ranked.slice(0, 2)
  // quoted only from another party's sentences: whose they are
  const party = best.length && best.every((item) => item.party) ? best[0]?.party : null
  return {
    share: total ? found / total : 0,
    best: best.map((item) => item.sentence),
    ...(party ? { party } : {}),
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

export function extractive(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  corroboration: { entry: LibraryEntry; score: number } | null = null,
  /** The organisation answered No about the practice: no passage turns that into a Yes. */
  contested = false,
  /** Whose each sentence is (parties.ts): another party's alone makes a lead (third_party). */
  parties: PartyReader | null = null,
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
      ...coverage(
        question.text,
        passage.text,
        space,
        named,
        parties && ((sentence: string) => parties.whose(passage, sentence)),
      ),
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
    const candidate: Candidate = {
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
    }
    candidates.push(item.party ? asThirdParty(candidate, item.party) : candidate)
    if (candidates.length >= 3) break
  }
  return candidates
}
