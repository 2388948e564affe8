/**
 * A sentence of a document as a quote (issue 30): whole, and without the words that tie it to
 * what came before it. A passage cut by a page or a chunk can start inside a sentence ('protect
 * their private keys and ...'): such a piece has lost its subject, so it is neither quoted nor
 * read for what it states. A whole sentence that opens with a discourse lead-in ('This is why
 * our program ...', 'In addition, we ...') is quoted from its claim ('Our program ...'), which
 * the lead-in does not change: it only points back at a sentence the reader does not see.
 */

/** Lead-ins that stand before a comma ('In addition, we ...'). */
const BEFORE_COMMA = [
  'in addition(?: to (?:this|that))?',
  'additionally',
  'furthermore',
  'moreover',
  'also',
  'besides',
  'likewise',
  'similarly',
  'therefore',
  'thus',
  'hence',
  'consequently',
  'accordingly',
  'as a result',
  'as such',
  'for (?:this|that) reason',
  'for these reasons',
  'to (?:this|that) end',
  'with (?:this|that) in mind',
  'in turn',
  'in fact',
  'indeed',
  'of course',
  'naturally',
  'in short',
  'in summary',
  'to summari[sz]e',
  'overall',
  'finally',
  'lastly',
  'first(?:ly)?',
  'second(?:ly)?',
  'third(?:ly)?',
  'then',
  'however',
  'that said',
  'having said (?:this|that)',
  'on top of (?:this|that)',
  'beyond (?:this|that)',
  'and',
  'but',
  'so',
  "speaking of [\\w’'-]+(?: [\\w’'-]+)?",
  'as (?:mentioned|noted|stated|described|discussed|explained|outlined|shown|indicated)(?: (?:above|earlier|before|previously|below|in (?:the )?(?:previous|preceding|next) sections?))?',
]
const LEAD_IN_COMMA = new RegExp(`^(?:${BEFORE_COMMA.join('|')}),\\s+`, 'i')
/** Lead-ins without a comma ('This is why our program ...', 'And we ...'). */
const LEAD_IN_BARE = /^(?:(?:this|that) is (?:why|how)|that[’']s (?:why|how)|and|but|so)\s+(?=\w)/i

/** A piece of a sentence: it opens in lower case (not a name like 'iOS') or on punctuation. */
const FRAGMENT = /^(?:[a-z](?![a-z]*[A-Z])(?![.)]\s)|[,;:)\]])/

/** Fewest characters a quote keeps: a lead-in is not trimmed down to less. */
const SHORTEST = 20

/** The sentence as a quote: its lead-in trimmed; null for a piece of a sentence. */
export function asQuote(sentence: string): string | null {
  const whole = sentence.trim()
  if (FRAGMENT.test(whole)) return null
  let text = whole
  for (let round = 0; round < 3; round++) {
    const lead = LEAD_IN_COMMA.exec(text) ?? LEAD_IN_BARE.exec(text)
    if (!lead) break
    const rest = text.slice(lead[0].length)
    if (rest.length < SHORTEST) break
    text = rest
  }
  // the claim opens the quote now: it opens as a sentence does
  return text === whole
    ? whole
    : text.replace(/^\p{Ll}(?![a-z]*[A-Z])/u, (first) => first.toUpperCase())
}
