import { emptyNames, findNames, type NamesFound, nameKey, titleWords } from './party-names.ts'
import { sentences } from './text.ts'
import type { OtherParty, PartyBookRef, PartyReader, PassageHit } from './types.ts'

/**
 * Whose practice a sentence states (issue 38). It states the organisation's only when its subject
 * is the organisation, its product or its people: 'we', 'our', one of the organisation's names,
 * or no named subject at all. A sentence whose subject (or the owner of what it speaks of) is
 * another named party ('AWS encrypts ...', 'Google's terms state ...', 'Under the Microsoft DPA,
 * Microsoft will ...'), a law's, a standard's or an agreement's text ('FERPA requires ...',
 * 'Section 4.2 of the agreement ...'), or a pronoun or 'the provider' that stands for such a party
 * in its passage, states that party's: a lead, not evidence. A document whose sentences mostly
 * speak of one other party is that party's document: there, a sentence with no named subject is
 * that party's too; the organisation's own sentences in it still count.
 * The names are those found in the text (party-names.ts), never a list.
 */

type Subject =
  | { kind: 'first' }
  | { kind: 'named'; key: string; says?: true }
  | { kind: 'text'; name: string }
  | { kind: 'back' }
  | { kind: 'reference'; name: string }
  | { kind: 'none' }

/** An opening clause before the subject ('Under the Microsoft DPA,', 'According to AWS,'). */
const SOURCE_CLAUSE =
  /^(?:under|per|pursuant to|according to|in accordance with|as (?:stated|set out|described|provided|specified|required|defined) (?:in|by)|based on)\s+([^,]{1,120}),\s*(.+)$/i
/** Any other opening clause ('At Instructure, we ...', 'If AWS detects ..., it ...'). */
const OPENING =
  /^((?:at|in|on|for|with|within|as|after|before|during|through|via|today|currently|additionally|also|however|furthermore|moreover|finally|similarly|instead|here|there|to|by|from|of|when|where|if|once|while|since|unless|because|whenever)\b[^,]{0,100}),\s+(.+)$/i
const FIRST_PERSON = /^(?:we|our|us)\b/i
/**
 * A pronoun that stands for the party of the sentence before ('It encrypts ...', 'Its terms ...');
 * not one that stands for a thing ('It is logged', 'They are each fed ...').
 */
const BACK =
  /^(?:its|their|(?:it|they)\s+(?!(?:is|are|was|were|has been|have been|will be|can be|may be|must be)\b))/i
/** A party named by its role, that stands for a party named before it in the passage. */
const REFERENCE =
  /^(?:the|our|its|their)\s+(?:(?:cloud|hosting|infrastructure|service|third[- ]party|iaas|paas|saas)\s+)*(?:providers?|vendors?|processors?|sub-?processors?|suppliers?|licensors?|partners?|hosts?)\b/i
/** A verb by which a party or a text states what others must do. */
const SAYS =
  /^\s+(?:also\s+)?(?:requires?|mandates?|stipulates?|obliges|obligates|prohibits|specifies)\b/

/** What is done to a party rather than by it ('... are vetted annually', '... are bound by'). */
const DONE_TO =
  /^\s+(?:is|are|was|were|must be|will be|shall be|has been|have been)\s+(?:\w+ed|bound|held|made|kept|chosen|given)\b/i
/** A text that states ('Section 4.2 of the agreement requires', 'The DPA provides that'). */
const TEXT_SUBJECT =
  /^((?:the\s+)?(?:(?:section|article|clause|paragraph|schedule|annex|appendix|exhibit)\s+[\dIVXivx][\w.()-]*(?:\s+of\s+(?:the\s+)?[\w -]{1,40}?)?|(?:agreement|contract|terms(?: of (?:service|use))?|dpa|data processing (?:agreement|addendum)|addendum|licen[cs]e(?: agreement)?|act|regulation|directive|statute|law))),?\s+(?:also\s+)?(?:requires?|states?|provides?|says|stipulates?|mandates?|obliges|obligates|specifies|defines|prohibits|permits|sets out|notes)\b/i
/**
 * After 'The' and a name, what makes the name a party's rather than a role's ('The AWS
 * infrastructure is ...', 'The Microsoft DPA states ...'; 'The CISO reviews ...' is a role): a
 * possessive, or a noun and then a verb.
 */
const OWNED_AFTER =
  /^(?:[’']s?\s|\s+[A-Za-z-]+\s+(?:is|are|was|were|has|have|had|will|would|can|cannot|could|may|might|must|shall|should|does|do|did|states?|requires?|provides?|utili[sz]es?|uses?)\b)/

/**
 * A party named only by its role, none named before it in the passage: 'the hosting provider' is
 * another party whoever it is ('your hosting provider'); 'the vendor' may be the organisation
 * itself (undefined).
 */
const unnamed = (role: string): OtherParty | undefined =>
  /\bvendors?$/i.test(role)
    ? undefined
    : { name: role.toLowerCase().replace(/^(?:the|our|its|their)\s+/, 'your '), text: false }

/** Strips what opens a sentence but says nothing of its subject: bullets, quotes, numbering. */
const bare = (sentence: string) =>
  sentence.replace(/^[\s•·*–\-'"‘“(]+/, '').replace(/^\(?(?:\d{1,2}|[a-z])[).]\s+/, '')

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The subject of a sentence, as far as parties go. */
function subjectOf(sentence: string, names: NameMatcher): Subject {
  // a label before a colon ('AWS Shield / ELB: We utilize ...') is not the sentence's subject
  let rest = bare(sentence).replace(/^[^:.]{1,60}:\s+(?=\S)/, '')
  // the party of an opening clause: the subject of a sentence that has none of its own after
  // 'Under the Microsoft DPA,' or 'According to AWS,'; the one a pronoun after any clause stands for
  let fromSource: Subject | null = null
  let fromClause: Subject | null = null
  const source = SOURCE_CLAUSE.exec(rest)
  const opening = source ? null : OPENING.exec(rest)
  const clause = (source ?? opening)?.[1]
  if (clause) {
    const named = names.first(clause)
    const text = TEXT_SUBJECT.exec(`${clause.replace(/^the\s+/i, '')} states`)
    fromClause = named
      ? { kind: 'named', key: named }
      : text
        ? { kind: 'text', name: clause.replace(/^the\s+/i, '') }
        : null
    if (source) fromSource = fromClause
    rest = (source ?? opening)?.[2] as string
  }
  const reference = REFERENCE.exec(rest)
  // ('Our sub-processors are bound by ...' says what the organisation does with them)
  if (reference && !DONE_TO.test(rest.slice(reference[0].length)))
    return fromSource ?? { kind: 'reference', name: reference[0] }
  if (FIRST_PERSON.test(rest)) return { kind: 'first' }
  const text = TEXT_SUBJECT.exec(rest)
  if (text) return { kind: 'text', name: (text[1] as string).replace(/^the\s+/i, '') }
  if (BACK.test(rest)) return fromClause ?? { kind: 'back' }
  const article = /^the\s+/i.exec(rest)
  const head = article ? rest.slice(article[0].length) : rest
  const key = names.at(head)
  if (key && (!article || OWNED_AFTER.test(head.slice(key.length))))
    // ('Northfield University requires ...' says what it requires, not what it does)
    return { kind: 'named', key, ...(SAYS.test(head.slice(key.length)) ? { says: true } : {}) }
  return fromSource ?? { kind: 'none' }
}

/** The known names of a knowledge base, matched in a text (longest first, whole words). */
class NameMatcher {
  private readonly anywhere: RegExp | null
  private readonly start: RegExp | null
  constructor(keys: string[]) {
    const sorted = [...keys].sort((a, b) => b.length - a.length).map(escapeRegExp)
    const alternation = sorted.join('|')
    this.anywhere = sorted.length ? new RegExp(`\\b(?:${alternation})(?![a-z0-9])`, 'gi') : null
    this.start = sorted.length ? new RegExp(`^(?:${alternation})(?![a-z0-9])`, 'i') : null
  }
  /**
   * The name a text opens with; none where a number follows it ('ISO 27001 certification is
   * ...' speaks of a standard the organisation holds, not of ISO).
   */
  at(text: string): string | null {
    const match = this.start?.exec(text)
    if (!match || /^[\s/:-]*\d/.test(text.slice(match[0].length))) return null
    return nameKey(match[0])
  }
  /** The first name a text holds. */
  first(text: string): string | null {
    return this.all(text)[0] ?? null
  }
  all(text: string): string[] {
    if (!this.anywhere) return []
    return [...text.matchAll(this.anywhere)].map((match) => nameKey(match[0]))
  }
}

/** Share of a document's sentences with a named subject one other party must hold to be its. */
const MOSTLY = 0.5
/** Fewest sentences of that party that make a document its. */
const MOSTLY_AT_LEAST = 3

/**
 * The parties of a knowledge base, read once from all its passages (a job's index holds them all;
 * otherwise a question's): the names its text shows, its files' passages. Read lazily, on the
 * first question that needs it; `of` gives the view for the organisation's known names.
 */
export class PartyBook implements PartyBookRef {
  private readonly source: readonly PassageHit[]
  private read: { found: NamesFound; byFile: Map<number, PassageHit[]> } | null = null
  private readonly views = new Map<string, Parties>()

  constructor(passages: readonly PassageHit[]) {
    this.source = passages
  }

  /** What the passages show: their names, and each file's passages. */
  get contents() {
    if (this.read) return this.read
    const found = emptyNames()
    const byFile = new Map<number, PassageHit[]>()
    for (const passage of this.source) {
      if (passage.source === 'data') continue
      findNames(passage.text, found)
      if (passage.fileId === null || passage.source !== 'file') continue
      const list = byFile.get(passage.fileId) ?? []
      list.push(passage)
      byFile.set(passage.fileId, list)
    }
    // a name and its acronym: a party both, where either is shown to be one
    for (const [key, alias] of found.aliases)
      if (found.parties.has(key) && !found.parties.has(alias))
        found.parties.set(alias, found.spelled.get(alias) ?? alias)
    this.read = { found, byFile }
    return this.read
  }

  /** The parties as seen by an organisation of these names (none known: as its documents say). */
  of(known: readonly string[]): Parties {
    const key = known.map(nameKey).sort().join('\u001f')
    let view = this.views.get(key)
    if (!view) {
      view = new Parties(this, known)
      this.views.set(key, view)
    }
    return view
  }
}

/** Whose each sentence is, for an organisation of known names. */
export class Parties implements PartyReader {
  private readonly found: NamesFound
  private readonly byFile: Map<number, PassageHit[]>
  private readonly fileParty = new Map<number, OtherParty | null>()
  private readonly own = new Set<string>()
  private readonly names: NameMatcher
  private readonly passages = new Map<
    string,
    { sentences: string[]; whose: (OtherParty | null | undefined)[] }
  >()

  constructor(book: PartyBook, known: readonly string[] = []) {
    const { found, byFile } = book.contents
    this.found = found
    this.byFile = byFile
    for (const name of known) this.addOwn(nameKey(name))
    for (const key of this.found.speaks) this.addOwn(key)
    // a file named after a party its text shows is that party's document: the organisation's,
    // unless its text says the party serves it (hosted by it, its provider)
    for (const list of this.byFile.values()) {
      const title = titleWords(list[0]?.title ?? '')
      for (const key of this.found.parties.keys())
        if (key.length >= 3 && !this.found.texts.has(key) && title.includes(` ${key} `))
          if (!this.found.serving.has(key) || this.isOwn(key)) this.addOwn(key)
    }
    this.names = new NameMatcher([...new Set([...this.found.parties.keys(), ...this.own])])
  }

  private addOwn(key: string) {
    if (!key) return
    this.own.add(key)
    const alias = this.found.aliases.get(key)
    if (alias) this.own.add(alias)
  }

  /** Whether a name is the organisation's: one of its names, part of one, or one with more words. */
  isOwn(key: string): boolean {
    if (this.own.has(key)) return true
    const alias = this.found.aliases.get(key)
    if (alias && this.own.has(alias)) return true
    // 'Instructure Security Team' and 'Canvas' are Instructure's and Canvas Credentials'
    for (const own of this.own)
      if (key.startsWith(`${own} `) || own.startsWith(`${key} `)) return true
    return false
  }

  /** The party a known name stands for, as the text writes it; null for the organisation. */
  private partyOf(key: string, says?: true): OtherParty | null {
    // 'Members of Instructure' are Instructure's
    const of = key.lastIndexOf(' of ')
    if (of > 0 && this.isOwn(key.slice(of + 4))) return null
    if (this.isOwn(key)) return null
    const name = this.found.parties.get(key) ?? key
    return { name, text: Boolean(says) || this.found.texts.has(key) }
  }

  /**
   * Whose each sentence of a passage is by its subject (undefined: no named subject), a pronoun
   * resolved to the sentence before, a role ('the provider') to the last other party named.
   */
  private read(text: string) {
    const known = this.passages.get(text)
    if (known) return known
    const list = sentences(text)
    const out: (OtherParty | null | undefined)[] = []
    let last: OtherParty | null | undefined
    let lastOther: OtherParty | undefined
    for (const sentence of list) {
      const subject = subjectOf(sentence, this.names)
      const whose =
        subject.kind === 'first'
          ? null
          : subject.kind === 'named'
            ? this.partyOf(subject.key, subject.says)
            : subject.kind === 'text'
              ? { name: subject.name, text: true }
              : subject.kind === 'back'
                ? last
                : subject.kind === 'reference'
                  ? (lastOther ?? unnamed(subject.name))
                  : undefined
      out.push(whose)
      if (whose !== undefined) last = whose
      for (const key of this.names.all(sentence)) {
        const party = this.partyOf(key)
        if (party && !party.text) lastOther = party
      }
    }
    const read = { sentences: list, whose: out }
    if (this.passages.size >= 5_000) this.passages.clear()
    this.passages.set(text, read)
    return read
  }

  /**
   * The other party a document mostly speaks of: the subject of at least half its sentences that
   * have a named subject, and of more of them than the organisation. Null: the organisation's.
   */
  documentParty(fileId: number | null): OtherParty | null {
    if (fileId === null) return null
    const known = this.fileParty.get(fileId)
    if (known !== undefined) return known
    const counts = new Map<string, { party: OtherParty; n: number }>()
    let own = 0
    let named = 0
    for (const passage of this.byFile.get(fileId) ?? [])
      for (const whose of this.read(passage.text).whose) {
        if (whose === undefined) continue
        named += 1
        if (whose === null) own += 1
        else {
          const count = counts.get(whose.name) ?? { party: whose, n: 0 }
          count.n += 1
          counts.set(whose.name, count)
        }
      }
    const [top] = [...counts.values()].sort((a, b) => b.n - a.n)
    const party =
      top && top.n >= MOSTLY_AT_LEAST && top.n > own && top.n >= MOSTLY * named ? top.party : null
    this.fileParty.set(fileId, party)
    return party
  }

  /**
   * Whose practice a sentence of a passage states: null, the organisation's; else the other party
   * (or text) it speaks for. A sentence with no named subject is its document's party's.
   */
  whose(passage: PassageHit, sentence: string): OtherParty | null {
    if (passage.source === 'data') return null
    const read = this.read(passage.text)
    // (a quote may be cut from its lead-in: 'In addition, we ...' is quoted from 'We ...')
    const probe = sentence.slice(-60)
    const exact = read.sentences.indexOf(sentence)
    const at = exact >= 0 ? exact : read.sentences.findIndex((each) => each.includes(probe))
    const whose = at >= 0 ? read.whose[at] : this.subjectWhose(sentence)
    if (whose !== undefined) return whose
    return passage.source === 'file' ? this.documentParty(passage.fileId) : null
  }

  /** The subject of a sentence read alone (undefined: no named subject). */
  private subjectWhose(sentence: string): OtherParty | null | undefined {
    const subject = subjectOf(sentence, this.names)
    if (subject.kind === 'first') return null
    if (subject.kind === 'named') return this.partyOf(subject.key, subject.says)
    if (subject.kind === 'text') return { name: subject.name, text: true }
    if (subject.kind === 'reference') return unnamed(subject.name)
    return undefined
  }

  /** The organisation's names, as found (the known ones, those its documents speak as). */
  ownNames(): string[] {
    return [...this.own]
  }
}

/**
 * The parties for a question's passages: the knowledge base's, read from all its passages where a
 * job's index gave them, else from these; as seen by an organisation of these names (own-names.ts).
 */
export function partiesFor(passages: readonly PassageHit[], known: readonly string[]): PartyReader {
  // (the documents' book: a library narrative's is of the library's answers alone)
  const book =
    passages.find((passage) => passage.parties && !passage.library)?.parties ??
    new PartyBook(passages)
  return book.of(known)
}
