import type { AnswerPart } from '../../contract/answers.ts'
import { doneAsAsked, isFrameTerm } from './framing.ts'
import { YES_NO_QUESTION } from './library.ts'
import { namedPractices } from './named-practices.ts'
import { partsOf } from './parts.ts'
import { cueTerms, practicesOf } from './practices.ts'
import { QUALIFIERS } from './qualifiers.ts'
import { practiceScope, SCOPE_FLOOR } from './scope.ts'
import { asksOfProvider, isQuestion, readPassage, saysWhatIsDone } from './statements.ts'
import {
  deniesTerms,
  isNegated,
  sentences,
  type TfIdf,
  terms,
  withFormWords,
  withoutExamples,
} from './text.ts'
import type { PassageHit, QuestionInput } from './types.ts'

/**
 * What supports an answer, and what of the question it leaves unsaid (issue 30): the document
 * sentences that state what a question asks, one per document, best first; and the parts of the
 * question (parts.ts for the practice and what is asked of it; the things a 'who/what/which'
 * question asks for, 'the carrier', 'the coverage limit') that none of the sentences shown says.
 */

export interface Supporting {
  sentence: string
  passage: PassageHit
}

/** Most documents whose sentences support one answer. */
const MOST_DOCUMENTS = 4

/**
 * The sentences of the documents among `passages` that state what the question asks: for a
 * question that names practices, a sentence that states one of them as the organisation's own
 * (with, for a Yes/No question, most of what else it asks, and how often when it asks that); for
 * another, a sentence that holds most of its words. `side` keeps the sentences that affirm
 * ('yes') or deny ('no') it; null keeps those that affirm, or any for a question that is not
 * Yes/No. One sentence per document, the one that says most.
 */
export function supportingSentences(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  side: 'yes' | 'no' | null = null,
): Supporting[] {
  const documents = passages.filter((passage) => passage.source === 'file' && !passage.library)
  const yesNo = YES_NO_QUESTION.test(question.text)
  const whole = new Set(terms(withoutExamples(question.text)))
  const fitOf = (list: string[]) =>
    whole.size ? list.filter((term) => whole.has(term)).length / whole.size : 0
  const wantDenied = side === 'no'
  const scope = practiceScope(question.text, space, question.previous)
  const found: (Supporting & { score: number; fit: number; key: string })[] = []
  for (const passage of documents) {
    const key = String(passage.fileId ?? passage.id)
    if (scope) {
      const ofProvider = asksOfProvider(question.text)
      for (const statement of readPassage(passage.text).statements) {
        const said = (ofProvider ? statement.withProvider : statement.practices).filter((id) =>
          scope.named.includes(id),
        )
        if (!said.length) continue
        const own = scope.detailShareOf(withFormWords(statement.sentenceTerms))
        // a Yes/No question is supported by a sentence that says most of what it asks; another
        // by any that states the practice, what the sources say of it
        if (yesNo && (own < SCOPE_FLOOR || !doneAsAsked(question.text, statement.sentenceTerms)))
          continue
        if (deniesTerms(statement.sentence, cueTerms(said), 5) !== wantDenied) continue
        const fit = fitOf(statement.sentenceTerms)
        found.push({ sentence: statement.sentence, passage, score: own, fit, key })
      }
      continue
    }
    const wanted = [...whole].filter((term) => !isFrameTerm(term))
    const total = wanted.reduce((sum, term) => sum + space.idf(term), 0)
    if (!total) continue
    for (const sentence of sentences(passage.text)) {
      if (isQuestion(sentence) || !saysWhatIsDone(sentence)) continue
      if (isNegated(sentence) !== wantDenied) continue
      const list = terms(sentence)
      const have = new Set(list)
      const share = wanted.reduce((sum, term) => sum + (have.has(term) ? space.idf(term) : 0), 0)
      if (share / total < SCOPE_FLOOR) continue
      found.push({ sentence, passage, score: share / total, fit: fitOf(list), key })
    }
  }
  found.sort((a, b) => b.score - a.score || b.fit - a.fit)
  const seen = new Set<string>()
  const kept: Supporting[] = []
  for (const item of found) {
    if (seen.has(item.key)) continue
    seen.add(item.key)
    kept.push({ sentence: item.sentence, passage: item.passage })
    if (kept.length === MOST_DOCUMENTS) break
  }
  return kept
}

/** One thing a question asks for ('the coverage limit'), and the words a text must hold to say it. */
export interface AskedItem {
  label: string
  terms: string[]
  /** The practices the item is of ('the RTO'), when it names nothing besides: a text states one. */
  practices: string[]
  /** A value is asked ('limit', 'period'): the text that says it holds a number. */
  value: boolean
}

/** Nouns that ask for a value: what says it holds a number. */
const VALUE_NOUNS = new Set(
  terms(
    'limit limits amount period duration number count size length date deadline time value cost price rate percentage threshold capacity version term objective',
  ),
)
const NUMBER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand|million|billion)\b/i
/**
 * The start of a clause that asks for a thing: 'who is our', 'what are the' ('which region hosts
 * the standby' asks for a thing by a verb this reading does not know: not read).
 */
const ASKS_FOR =
  /^\s*(?:(?:who|what|which)\s+(?:is|are|was|were)|(?:who|what)['’]s)\s+(?:(?:the|our|your|its|their|a|an)\s+)?/i
/** The start of a clause that asks something else: how, when, where, why, a verb. */
const ASKS_OTHER =
  /^\s*(?:who|what|which|how|when|where|why|do|does|did|is|are|was|were|have|has|can|will|would|should|describe|explain|list|provide)\b/i
/** A noun phrase, not a clause: a few words, no verb of being or doing. */
const NOT_A_NOUN_PHRASE = /\b(?:is|are|was|were|be|been|do|does|did|has|have|had|can|will)\b/i

/**
 * The things a 'who/what/which' question asks for, in its own words: 'Who is our cyber insurance
 * carrier and what is the coverage limit?' asks for 'the cyber insurance carrier' and 'the
 * coverage limit'. [] for a Yes/No question, and for clauses that ask how, when or where (what
 * would say them is no noun).
 */
export function askedItems(question: string, previous?: string | null): AskedItem[] {
  if (YES_NO_QUESTION.test(question)) return []
  const plain = withoutExamples(question).replace(/\?[\s\S]*$/, '')
  const cues = cueTerms(namedPractices(question, previous))
  const items: AskedItem[] = []
  let asking = false
  for (const chunk of plain.split(/\s*(?:[,;:]|\band\b|\bor\b|\bas well as\b)\s*/i)) {
    if (!chunk.trim()) continue
    const lead = ASKS_FOR.exec(chunk)
    if (lead) asking = true
    else if (ASKS_OTHER.test(chunk)) asking = false
    if (!asking) continue
    const phrase = chunk
      .slice(lead?.[0].length ?? 0)
      .replace(/^\s*(?:the|our|your|its|their|a|an)\s+/i, '')
      .trim()
    const words = phrase.split(/\s+/)
    if (!phrase || words.length > 6 || NOT_A_NOUN_PHRASE.test(phrase)) continue
    const own = terms(phrase)
    // the head of 'the retention period for logs' is 'period'
    const last = terms(phrase.split(/\s+(?:of|for|in|on|at|with|by|to|per)\s+/i)[0] ?? '').at(-1)
    const value = last !== undefined && VALUE_NOUNS.has(last)
    // the practice's own words are said by the sentence that states it; the rest must be said
    const needed = own.filter(
      (term) => !cues.has(term) && !isFrameTerm(term) && !(value && term === last),
    )
    const practices = needed.length ? [] : practicesOf(phrase)
    if (!needed.length && !value && !practices.length) continue
    items.push({ label: `the ${phrase.toLowerCase()}`, terms: needed, practices, value })
  }
  return items
}

/** Whether a text says an asked item: its words, and a number where a value is asked. */
const says = (item: AskedItem, text: string) => {
  const have = new Set(terms(text))
  const stated =
    !item.practices.length || practicesOf(text).some((id) => item.practices.includes(id))
  return stated && item.terms.every((term) => have.has(term)) && (!item.value || NUMBER.test(text))
}

/** A part of parts.ts as what the sources do not state ('that it is automated'). */
function phraseOf(part: AnswerPart): string {
  if (part.kind === 'practice') return part.label
  if (part.kind === 'frequency') return `that it is done ${part.label}`
  if (part.kind === 'qualifier')
    return `that ${
      QUALIFIERS.find((qualifier) => part.label.startsWith(qualifier.label.slice(0, 5)))?.phrase ??
      `it follows ${part.label}`
    }`
  return `that it is ${part.label}`
}

/**
 * What of the question none of the texts says, in words: the things a question asks for that no
 * text names, and (for an answer read from document sentences) the parts of the question no
 * sentence states. [] when they say it all.
 */
export function unsaidParts(
  question: QuestionInput,
  texts: string[],
  /** The document sentences of an answer read part by part; null when it was not. */
  stating: string[] | null,
): string[] {
  const items = askedItems(question.text, question.previous)
  if (items.length)
    return items.filter((item) => !texts.some((text) => says(item, text))).map((item) => item.label)
  if (!stating) return []
  return partsOf(question.text, stating, question.previous)
    .filter((part) => !part.sentence)
    .map(phraseOf)
}
