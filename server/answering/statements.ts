import { mentions } from './practices.ts'
import { sentences, terms, withFormWords } from './text.ts'

/**
 * Reading a passage for statements: which practices each sentence states as the organisation's
 * own. A long list of topics states none of them, what the customers do is theirs, and what the
 * hosting provider does is the controls it passes on; a question, a heading, a fragment or a
 * pointer elsewhere states nothing.
 */

/**
 * A sentence that says what the customers do ('best practice dictates that our customers develop
 * their own recovery plans', 'clients are responsible for their backups'): it states their
 * practice, not the organisation's. 'Customers can export their data' says what the product
 * offers, and stays.
 */
const CUSTOMERS_DO =
  /\b(?:customers?|clients?|institutions?|tenants?|subscribers?|end users?)\s+(?:(?:are|is|remain)\s+(?:(?:solely|fully|ultimately)\s+)?(?:responsible|encouraged|advised|expected|required|accountable)|should|must|need to|(?:may )?wish to|(?:develop|maintain|create|establish|implement|manage|configure)s?\b)/i

/**
 * A sentence about what the hosting provider does ('The AWS infrastructure is designed and
 * managed in accordance with...', 'AWS data centers utilize electronic surveillance'): it states
 * the controls a customer of that provider inherits (its facilities, their availability), not the
 * organisation's own practices.
 */
const PROVIDER_DOES =
  /^\W*(?:the\s+)?(?:aws|amazon(?:\s+web\s+services)?|azure|microsoft\s+azure|google\s+cloud(?:\s+platform)?|gcp|(?:our|the)\s+(?:cloud|hosting|infrastructure)\s+(?:service\s+)?provider)(?:['’]s?)?\b/i
/** A question about the hosting provider itself ('Does your hosting provider have a SOC 2 report?'). */
export const asksOfProvider = (question: string) =>
  /\b(?:hosting|cloud|infrastructure|iaas)\s+(?:service\s+)?providers?\b|\b(?:aws|amazon|azure|gcp|google cloud)\b/i.test(
    question,
  )
const INHERITED = new Set([
  'physical-security',
  'video-surveillance',
  'environmental-protection',
  'high-availability',
  'data-location',
  'third-party-hosting',
  'ddos-protection',
  'media-handling',
])

/** Items of a list ('via governance, risk management, policy, education, ...'). */
const LIST_SPLIT = /\s*(?:[,;]|\band\b|\bor\b)\s*/i
/** Fewest items in a row that make a list of topics, and most words an item has. */
const LIST_ITEMS = 5
const ITEM_WORDS = 4

/**
 * The practices a sentence states: those it names, less those it names only as items of a long
 * list of topics ('responsible for ... via governance, risk management, policy, education,
 * security engineering, ... and application security' states none of them), and none when it says
 * what the customers do.
 */
export function statedIn(
  sentence: string,
  sentenceTerms: string[] = terms(sentence),
  aboutProvider = false,
): string[] {
  const named = mentions(sentenceTerms).map((m) => m.practice)
  if (!named.length) return named
  if (CUSTOMERS_DO.test(sentence)) return named.filter((id) => id === 'shared-responsibility')
  if (!aboutProvider && PROVIDER_DOES.test(sentence)) return named.filter((id) => INHERITED.has(id))
  const items = sentence.split(LIST_SPLIT).filter((item) => item.trim())
  // runs of short items
  const kept: string[] = []
  let run: string[] = []
  const close = () => {
    if (run.length < LIST_ITEMS) kept.push(...run)
    run = []
  }
  for (const item of items) {
    if (item.trim().split(/\s+/).length <= ITEM_WORDS) run.push(item)
    else {
      close()
      kept.push(item)
    }
  }
  close()
  if (kept.length === items.length) return named
  const outside = new Set(mentions(terms(kept.join(', '))).map((m) => m.practice))
  return named.filter((id) => outside.has(id))
}

/** A passage read for statements: its terms, and its sentences that could state a practice. */
export interface ReadPassage {
  context: Set<string>
  statements: {
    sentence: string
    sentenceTerms: string[]
    /** The practices it states as the organisation's own. */
    practices: string[]
    /** The practices it states, the hosting provider's too (for questions about the provider). */
    withProvider: string[]
  }[]
}

/**
 * Passages already read, by text: a generation job asks about the same passages for many
 * questions, and reading them (sentences, terms, practices) is most of the cost. Bounded.
 */
const READ = new Map<string, ReadPassage>()

export function readPassage(text: string): ReadPassage {
  const known = READ.get(text)
  if (known) return known
  const statements: ReadPassage['statements'] = []
  for (const sentence of sentences(text)) {
    // a question restated, or a heading, states nothing
    // (a bullet of a few words, 'Yearly backups for 10 years', says what but not that)
    const words = sentence.replace(/^[\s•·*–-]+/, '').split(/\s+/)
    // and a pointer ('please see our Continuity Plan') states nothing itself
    if (sentence.trim().endsWith('?') || words.length < 7 || POINTER.test(sentence)) continue
    const sentenceTerms = terms(sentence)
    const withProvider = statedIn(sentence, sentenceTerms, true)
    if (!withProvider.length) continue
    const practices = statedIn(sentence, sentenceTerms)
    statements.push({ sentence, sentenceTerms, practices, withProvider })
  }
  const read = { context: withFormWords(terms(text)), statements }
  if (READ.size >= 5_000) READ.clear()
  READ.set(text, read)
  return read
}

/** A sentence that sends the reader elsewhere for the practice rather than stating it. */
const POINTER = /\b(?:please )?(?:see|refer to)\b|\bfor more (?:detail|information)\b/i
