import { sentences, terms } from '../../answering/text.ts'
import type { PassageHit } from '../../answering/types.ts'

/**
 * Figures in chat answers (issue 39). A question that asks for a figure (an RTO, a retention
 * period, how often, which encryption standard) is answered by the sentence that gives it; where
 * no source gives one, the answer says so first, plainly, instead of offering a definition or a
 * promise as if it were the figure.
 */

/** What a question asks to be given as a figure, named for the reader ('the RTO'); else null. */
export function askedFigure(question: string): string | null {
  const text = question.replace(/\s+/g, ' ').trim()
  const acronym = text.match(/\b(RTO|RPO|MTTR|MTTD|SLA|SLO|uptime)\b/i)?.[1]
  if (acronym) return `the ${/^uptime$/i.test(acronym) ? 'uptime' : acronym.toUpperCase()}`
  const how = text.match(
    /\bhow (long|often|many|much|frequently|quickly|soon)\b\s*(?:(?:do|does|did|are|is|will|can)\s+)?([^?]*)/i,
  )
  if (how?.[1]) return `how ${how[1].toLowerCase()} ${(how[2] ?? '').trim()}`.trim()
  const noun = text.match(
    /\b(?:what|which)\s+(?:is\s+|are\s+)?(?:your\s+|the\s+)?((?:[\w-]+\s+){0,3}?(?:retention period|retention|key (?:length|size)|encryption (?:standard|algorithm|strength|level)|cipher(?: suite)?s?|algorithms?|frequency|interval|period|percentage|limit|minimum|maximum|length|version|standard|timeframe|time frame|window|deadline))\b/i,
  )?.[1]
  return noun ? `the ${noun.toLowerCase()}` : null
}

const NUMBER_WORDS =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|sixty|ninety|hundred|thousand)\b/i
const NAMED =
  /\b(?:AES|RSA|SHA|ECDSA|ECDHE|ECC|TLS|SSL|FIPS|PBKDF2|bcrypt|scrypt|argon2|HMAC|ChaCha20)\b/
const CADENCE =
  /\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|annually|yearly|semi-annually|biannually|every (?:day|night|week|month|quarter|year))\b/i

/** Whether a sentence gives a figure: a number, a named standard or a cadence. */
export const givesFigure = (text: string) =>
  /\d/.test(text) || NUMBER_WORDS.test(text) || NAMED.test(text) || CADENCE.test(text)

/** Words of a question that say only that a figure is asked, not of what. */
const FRAME = new Set(
  terms(
    'what which is are your the do you use how long often many much standard algorithm level version period frequency interval length size strength percentage limit minimum maximum time timeframe window deadline',
  ),
)

/** Whether a sentence's words hold a question's word, or one of its family (encryption, encryptrest). */
const holds = (have: string[], term: string) =>
  have.some(
    (word) =>
      word === term ||
      (term.length >= 6 && word.length >= 6 && word.slice(0, 6) === term.slice(0, 6)),
  )

/**
 * The documents' sentences that give a figure for what the question asks of, best first: most of
 * the question's own words, and a figure.
 */
export function figureSentences(question: string, passages: PassageHit[], most = 2) {
  const wanted = [...new Set(terms(question))].filter((term) => !FRAME.has(term))
  if (!wanted.length) return []
  const found: { sentence: string; passage: PassageHit; share: number }[] = []
  for (const passage of passages) {
    if (passage.library) continue
    for (const sentence of sentences(passage.text)) {
      if (sentence.trim().endsWith('?') || !givesFigure(sentence)) continue
      const have = terms(sentence)
      const share = wanted.filter((term) => holds(have, term)).length / wanted.length
      if (share >= 0.5) found.push({ sentence: sentence.trim(), passage, share })
    }
  }
  found.sort((a, b) => b.share - a.share)
  const seen = new Set<string>()
  return found
    .filter((item) => !seen.has(item.sentence) && Boolean(seen.add(item.sentence)))
    .slice(0, most)
}

/** The line an answer opens with where no source gives the figure asked. */
export const noFigureText = (label: string, voice: 'staff' | 'public' = 'staff') =>
  voice === 'public'
    ? `No figure for ${label} is published here.`
    : `No figure for ${label} is documented in your sources.`
