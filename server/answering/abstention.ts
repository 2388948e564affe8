import { YES_NO_QUESTION } from './library.ts'
import { OTHERS_CITED } from './quotes.ts'
import { practiceScope } from './scope.ts'
import type { TfIdf } from './text.ts'
import type { QuestionInput } from './types.ts'
import { scopeWords } from './wording.ts'

/**
 * What an abstention says (issue 30): as a person would write it, in whole words. What was looked
 * for is named in the question's own words ('No document or library answer says that
 * penetration testing is in place as asked (external, annually by an independent firm).'), never
 * as word stems or a list after 'with:'; then the closest quote, a whole sentence, where one
 * speaks of the practice ('Closest: “We conduct annual table-top exercises ...”').
 */

/** At most this many phrases of the question are named: the reviewer has the question itself. */
const PHRASES = 4

/**
 * What was looked for, for a question left unanswered: the practices it names and what else it
 * asks of them. Null when the question names no practice.
 */
export function lookedFor(question: QuestionInput, space: TfIdf): string | null {
  if (!YES_NO_QUESTION.test(question.text)) return null
  const asked = practiceScope(question.text, space, question.previous)
  if (!asked) return null
  const parts = asked.missing(new Set())
  const inQuestion = new Set(question.text.toLowerCase().match(WORD))
  // a part named neither by a word of the question nor by a label is a stem ('bas'): left out
  const words = scopeWords(question.text, parts).filter(
    (word, index) => word !== parts[index] || inQuestion.has(word),
  )
  const phrases = phrasesOf(question.text, words)
  const practices = asked.named.map((id) => id.replaceAll('-', ' '))
  const subject = listed(practices)
  const verb = practices.length > 1 ? 'are' : 'is'
  const scope = phrases.length ? ` as asked (${phrases.slice(0, PHRASES).join(', ')})` : ''
  return `No document or library answer says that ${subject} ${verb} in place${scope}.`
}

/** The abstention with the closest quote, and a word on the other passages cited. */
export const withClosest = (note: string, closest: string, others: boolean) =>
  `${note} Closest: ${closest}${others ? ` ${OTHERS_CITED}` : ''}`

const listed = (items: string[]) =>
  items.length > 1
    ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
    : (items[0] ?? '')

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu

/**
 * The words asked, as the question's own phrases in its order: words that stand together in the
 * question are named together ('local emergency authorities included'); a word the question does
 * not hold as such (a frequency named 'annually' for 'every year') is named on its own.
 */
function phrasesOf(question: string, words: string[]): string[] {
  const wanted = new Set(words.map((word) => word.toLowerCase()))
  const found = new Set<string>()
  // a label the question says in another form ('annually' for 'annual') is named in its form
  const tokens = [...question.matchAll(WORD)].map((match) => match[0].toLowerCase())
  for (const word of wanted) {
    const form = tokens.find((token) => token.length >= 5 && token.slice(0, 5) === word.slice(0, 5))
    if (tokens.includes(word) || !form) continue
    wanted.add(form)
    found.add(word)
  }
  const phrases: string[] = []
  let current: string[] = []
  let end = -1
  for (const match of question.matchAll(WORD)) {
    const word = match[0]
    const at = match.index ?? 0
    const key = word.toLowerCase()
    if (!wanted.has(key)) {
      if (current.length) phrases.push(current.join(' '))
      current = []
      continue
    }
    found.add(key)
    // words a comma or a bracket separates are separate phrases
    if (current.length && !/^\s+$/.test(question.slice(end, at))) {
      phrases.push(current.join(' '))
      current = []
    }
    current.push(word)
    end = at + word.length
  }
  if (current.length) phrases.push(current.join(' '))
  for (const word of words) if (!found.has(word.toLowerCase())) phrases.push(word)
  // only whole words: a part named by no word of the question nor of the labels is left out
  return [...new Set(phrases)]
}
