/**
 * The named parties a knowledge base speaks of (issue 38), found in its own text, never from a
 * list: a proper name that the text shows to be a party (its acronym defined, 'Inc.' or 'Ltd'
 * after it, a possessive, an agreement or terms of its, a service it gives, a text it states);
 * which of them are the organisation's own names (the library's vendor and product fields, its
 * data items, the names its documents speak as: 'At Instructure, we', a file named after it);
 * and which serve the organisation (hosted by, its provider, its sub-processor).
 */

/** A name as compared: lower case, spaces folded, without 'the', a possessive or a final dot. */
export const nameKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/[’']s?$/, '')
    .replace(/^the\s+/, '')
    .replace(/[\s_]+/g, ' ')
    .replace(/\.$/, '')
    .trim()

/** Capitalised words that open a sentence or a phrase and are never a name themselves. */
const FUNCTION_WORDS = new Set(
  'the a an at in on by for with from under per as if when where while once after before during through via within without unlike like according to also additionally however such other only most many no any some all each every both this these that those its their our we it they you your i of and or but so since until upon into onto yes no'.split(
    ' ',
  ),
)

/** A word of a name: capitalised ('Amazon', 'iCloud' is not), an acronym, or a number after one. */
const WORD = '(?:[A-Z][A-Za-z0-9&.-]*[A-Za-z0-9]|[A-Z])'
const TAIL = String.raw`(?:${WORD}|\d+(?:[.-]\d+)*)`
const NAME = String.raw`${WORD}(?:\s(?:(?:of|for|&)\s)?${TAIL}){0,4}`

/** The name a capitalised run holds, its opening function words dropped ('At Instructure'). */
function trimmed(run: string): string | null {
  const words = run.split(/\s+/)
  // (and a word that describes what follows: 'CSP-owned AWS', 'AWS-managed keys')
  const last = words.findLastIndex((word) => /-[a-z]/.test(word))
  if (last >= 0) words.splice(0, last + 1)
  while (words.length && FUNCTION_WORDS.has((words[0] as string).toLowerCase())) words.shift()
  const name = words
    .join(' ')
    .replace(/[.,;:]+$/, '')
    .trim()
  return name.length >= 2 && /[A-Z]/.test(name) ? name : null
}

/** Whether a name is an acronym, a numbered text or a named law: what a text says, not a party. */
const TEXT_NAME =
  /^(?:[A-Z]{3,}|.*\b\d[\d.-]*|.*\b(?:Act|Regulation|Directive|Rule|Law|Code|Standard|Principles?|Framework))$/

/**
 * Evidence that a name is a party, read right after it: an organisation's suffix ('Acme Inc'), a
 * possessive ('Google's terms', 'AWS’ cloud'), its agreement or terms ('the Microsoft DPA'), a
 * service it gives ('Amazon acts as a full IaaS provider', 'AWS, our cloud provider'), or a text it
 * states ('FERPA requires', 'ISO 27001 specifies').
 */
const AFTER = new RegExp(
  [
    String.raw`(?<suffix>,?\s+(?:Inc|LLC|Ltd|Limited|Corp|Corporation|GmbH|plc|AG|LLP)\b)`,
    String.raw`(?<termsOf>(?:’s|'s)\s+(?:(?:[Cc]ustomer|[Dd]ata [Pp]rocessing|[Ee]nterprise|[Mm]aster|[Ss]ervices?|[Ss]ubscription)\s+)?(?:DPA|terms|agreement|contract|addendum|privacy policy|privacy notice|sub-?processors?)\b)`,
    String.raw`(?<terms>\s+(?:(?:[Cc]ustomer|[Dd]ata [Pp]rocessing|[Ee]nterprise|[Mm]aster|[Ss]ervices?|[Ss]ubscription)\s+)?(?:DPA|[Tt]erms|[Aa]greement|[Cc]ontract|[Aa]ddendum|[Pp]rivacy [Pp]olicy|[Pp]rivacy [Nn]otice|[Ss]ub-?processors?)\b)`,
    String.raw`(?<possessive>(?:’s|'s)\s+(?=[A-Za-z])|(?<=[sS])[’']\s+(?=[a-z]))`,
    String.raw`(?<serves>\s+(?:acts|serves|functions|operates)\s+as\b|,?\s+(?:is\s+)?(?:our|its|their)\s+(?:[\w-]+\s+){0,3}(?:providers?|vendors?|processors?|sub-?processors?|hosts?|suppliers?|partners?)\b)`,
    String.raw`(?<text>\s+(?:requires?|mandates?|stipulates?|obliges|obligates|prohibits|specifies|defines|sets out)\b)`,
  ]
    .map((part) => `(?<=[A-Za-z0-9.])${part}`)
    .join('|'),
  'g',
)
/**
 * Evidence read right before a name: a service it gives the organisation ('hosted by', 'our
 * cloud provider, AWS', 'sub-processors such as'), an agreement with it.
 */
const BEFORE = new RegExp(
  [
    String.raw`(?<served>\b(?:hosted|housed|provided|supplied|operated|managed|processed|powered|run|runs)\s+(?:by|on|with|through)\s+(?:the\s+)?)`,
    String.raw`(?<hosts>\b(?:host|hosts|hosting)\s+(?:(?:its|our|the|their|all|customer|[a-z]+)\s+){0,3}?(?:on|with|by|through|at)\s+(?:the\s+)?)`,
    String.raw`(?<role>\b(?:(?:cloud|hosting|infrastructure|service|iaas|paas|saas|third[- ]party)\s+)?(?:providers?|vendors?|sub-?processors?|processors?|suppliers?|partners?|hosts?)\s*(?:,\s*|\s+)(?:such as\s+|including\s+|like\s+|namely\s+)?(?:the\s+)?)`,
    String.raw`(?<customer>\b(?:customers?|clients?)\s*(?:,\s*|\s+)(?:such as\s+|including\s+|like\s+|namely\s+)?(?:the\s+)?)`,
    String.raw`(?<with>\b(?:agreements?|contracts?|partnership|relationship)\s+with\s+(?:the\s+)?)`,
  ]
    .map((part) => `${part}(?=[A-Z])`)
    .join('|'),
  'g',
)
/** The name a text starts with, from `lastIndex`. */
const NAME_AT = new RegExp(NAME, 'y')

/** An acronym in brackets, after the name it stands for ('Amazon Web Services (AWS)'). */
const DEFINES = /\(\s*([A-Z][A-Za-z0-9&]{1,9})\s*\)/g
/** A name the text speaks as: 'At Instructure, we', 'Instructure (“we”)', 'we at Instructure'. */
const AT_NAME = /\bAt\s+(?=[A-Z])/g
const WE_AFTER = /^,\s+(?:we|our|us)\b/
const WE_DEFINED = /\(\s*(?:the\s+)?[“"'‘](?:we|us|our|company)[”"'’]/gi
const WE_AT = /\bwe\s+at\s+(?=[A-Z])/gi

/** Whether a word belongs to a name: capitalised, an acronym, or a number after one. */
const NAME_WORD = /^(?:[A-Z][A-Za-z0-9&.-]*|\d+(?:[.-]\d+)*)$/
/** The run of name words a text ends with ('... hosted by Amazon Web Services'), as written. */
function runBefore(text: string): string | null {
  const words = text.trimEnd().split(/\s+/)
  const run: string[] = []
  for (let i = words.length - 1; i >= 0 && run.length < 5; i--) {
    const word = words[i] as string
    if (NAME_WORD.test(word)) run.unshift(word)
    else if (/^(?:of|for|&)$/.test(word) && run.length && NAME_WORD.test(words[i - 1] ?? ''))
      run.unshift(word)
    else break
  }
  while (run.length && !/^[A-Z]/.test(run[0] as string)) run.shift()
  return run.length && text.trimEnd().length === text.length ? run.join(' ') : null
}

/** What one text shows of the names in it. */
export interface NamesFound {
  /** Names shown to be parties, by key, as written. */
  parties: Map<string, string>
  /** Of them, those only ever shown as a text that states (a law, a standard, an agreement). */
  texts: Set<string>
  /** Names that serve the speaker (hosted by, its provider): another party however named. */
  serving: Set<string>
  /** Names the text speaks as. */
  speaks: Set<string>
  /** Acronyms and the names they stand for, both ways, by key; and each as written. */
  aliases: Map<string, string>
  spelled: Map<string, string>
}

export const emptyNames = (): NamesFound => ({
  parties: new Map(),
  texts: new Set(),
  serving: new Set(),
  speaks: new Set(),
  aliases: new Map(),
  spelled: new Map(),
})

/**
 * A name of the organisation's people rather than of a party ('Security Team', 'Chief Information
 * Security Officer'): a role, whoever holds it.
 */
const ROLE =
  /\b(?:officers?|team|committee|manager|director|board|department|group|council|engineers?|lead|head|owners?|administrators?|staff|management|office)$/i
/**
 * A party named by what it is rather than who ('Customers', 'the Provider', 'CSP'): no name of
 * anyone; 'the provider' is resolved to the party it stands for in its passage (parties.ts).
 */
const GENERIC =
  /^(?:(?:cloud\s+)?(?:service\s+)?(?:companies|company|organi[sz]ations?|vendors?|customers?|clients?|providers?|suppliers?|users?|licensees?|licensors?|processors?|sub-?processors?|controllers?|partners?|tenants?|subscribers?|institutions?|csps?|cscs?))$/i

/** Reads a text for names and adds what it shows to `into`. */
export function findNames(text: string, into: NamesFound = emptyNames()): NamesFound {
  const asParty = new Set<string>()
  const asText = new Set<string>()
  const shown = (run: string, at: number, kind: string) => {
    const name = trimmed(run)
    if (!name || ROLE.test(name) || GENERIC.test(name)) return
    // a proper name: an acronym, or capitalised where a sentence does not begin ('Security
    // requires ...' is no party), but for the surest evidence ('Google's terms', 'Acme Inc')
    const start = at + run.length - run.trimStart().length + run.trimStart().indexOf(name)
    const opens = /(?:^|[.!?:;•·*]\s*|\n\s*)$/.test(text.slice(Math.max(0, start - 3), start))
    if (opens && !/[A-Z]{2}/.test(name) && !['suffix', 'termsOf', 'serves'].includes(kind)) return
    const key = nameKey(name)
    if (kind === 'text') asText.add(key)
    else asParty.add(key)
    if (kind === 'serves' || kind === 'served' || kind === 'hosts' || kind === 'role')
      into.serving.add(key)
    if (!into.parties.has(key)) into.parties.set(key, name)
  }
  for (const match of text.matchAll(AFTER)) {
    const at = match.index ?? 0
    const run = runBefore(text.slice(Math.max(0, at - 100), at))
    const kind = Object.entries(match.groups ?? {}).find(([, value]) => value)?.[0] ?? ''
    if (run) shown(run, at - run.length, kind)
  }
  for (const match of text.matchAll(BEFORE)) {
    NAME_AT.lastIndex = (match.index ?? 0) + match[0].length
    const run = NAME_AT.exec(text)?.[0]
    const kind = Object.entries(match.groups ?? {}).find(([, value]) => value)?.[0] ?? ''
    if (run) shown(run, NAME_AT.lastIndex - run.length, kind)
  }
  for (const match of text.matchAll(DEFINES)) {
    const run = runBefore(text.slice(Math.max(0, (match.index ?? 0) - 100), match.index).trimEnd())
    const name = run && trimmed(run)
    const acronym = match[1] as string
    if (!name || !initialsOf(name, acronym) || ROLE.test(name)) continue
    // (a term of art defines its acronym as often as a party does: 'Recovery Point Objective
    // (RPO)'; the two name one thing, a party only where other evidence shows it)
    into.aliases.set(nameKey(name), nameKey(acronym))
    into.aliases.set(nameKey(acronym), nameKey(name))
    into.spelled.set(nameKey(name), name)
    into.spelled.set(nameKey(acronym), acronym)
  }
  const speaks = (run: string | null | undefined) => {
    const name = run && trimmed(run)
    if (name) into.speaks.add(nameKey(name))
  }
  for (const match of text.matchAll(AT_NAME)) {
    NAME_AT.lastIndex = (match.index ?? 0) + match[0].length
    const run = NAME_AT.exec(text)?.[0]
    if (run && WE_AFTER.test(text.slice(NAME_AT.lastIndex, NAME_AT.lastIndex + 12))) speaks(run)
  }
  for (const match of text.matchAll(WE_DEFINED))
    speaks(runBefore(text.slice(Math.max(0, (match.index ?? 0) - 100), match.index).trimEnd()))
  for (const match of text.matchAll(WE_AT)) {
    NAME_AT.lastIndex = (match.index ?? 0) + match[0].length
    speaks(NAME_AT.exec(text)?.[0])
  }
  for (const key of asText)
    if (!asParty.has(key) && TEXT_NAME.test(into.parties.get(key) ?? '')) into.texts.add(key)
  for (const key of asParty) into.texts.delete(key)
  return into
}

/** Whether an acronym is made of a name's initials ('AWS' of 'Amazon Web Services'). */
const initialsOf = (name: string, acronym: string) => {
  const initials = name
    .split(/\s+/)
    .filter((word) => /^[A-Z]/.test(word))
    .map((word) => word[0])
    .join('')
  return initials.length >= 2 && acronym.toUpperCase().startsWith(initials.slice(0, 2))
}

/** A file's name as words ('Canvas_Credentials_Architecture.txt': 'canvas credentials architecture'). */
export const titleWords = (title: string) =>
  ` ${title
    .replace(/\.[A-Za-z0-9]{2,5}$/, '')
    .replace(/[_\s.-]+/g, ' ')
    .toLowerCase()
    .trim()} `
