/**
 * Text for matching questions: lower case, domain synonyms folded onto one term (MFA and
 * multi-factor authentication are one idea), stop words dropped, a light stemmer, and bigrams so
 * that word order carries some weight.
 */

/** Each line names one idea, its forms separated by ' | '; the first form is its canonical term. */
export const SYNONYMS: string[][] = [
  'mfa | multi factor authentication | multifactor authentication | multi-factor authentication | 2fa | two factor authentication | two-factor authentication | strong authentication',
  'sso | single sign on | single sign-on | saml | federated authentication | federated identity',
  'disasterrecovery | disaster recovery | dr plan | drp',
  'businesscontinuity | business continuity | bcp | continuity plan',
  'encryptrest | encryption at rest | encrypted at rest | data at rest | stored data encrypted | encrypt data at rest',
  'encrypttransit | encryption in transit | encrypted in transit | data in transit | tls | ssl | transport layer security | https',
  'pentest | penetration test | penetration testing | pen test | pentesting | penetration tests',
  'soc2 | soc 2 | soc ii | ssae 18 | ssae18 | soc2 type 2 | soc 2 type ii',
  'pii | personally identifiable information | personal data | personal information | personal and sensitive data | personal or sensitive data | sensitive personal data',
  'phi | protected health information | health information | hipaa',
  'rbac | role based access control | role-based access control | role based access',
  'siem | security information and event management | log management | centralized logging | centralised logging',
  'ids | intrusion detection | intrusion detection system | ips | intrusion prevention | intrusion prevention system | intrusions | intrusion monitoring',
  'dlp | data loss prevention | data leakage prevention',
  'vpn | virtual private network',
  'ddos | distributed denial of service | denial of service | dos attack',
  'sdlc | software development life cycle | software development lifecycle | secure development lifecycle | ssdlc',
  'incidentresponse | incident response | incident management | security incident',
  'vulnscan | vulnerability scan | vulnerability scanning | vulnerability scans | vulnerability assessment',
  'backup | backups | back up | back-up | backed up | backing up | data backup',
  'bgcheck | background check | background checks | background screening | criminal background',
  'privacypolicy | privacy policy | data privacy policy | privacy notice',
  'iso27001 | iso 27001 | iso/iec 27001 | iso27001',
  'gdpr | general data protection regulation',
  'ferpa | family educational rights and privacy act',
  'wcag | web content accessibility guidelines | vpat | accessibility conformance report | acr',
  'antivirus | anti-virus | anti virus | malware protection | anti-malware | antimalware | endpoint protection',
  'firewall | firewalls',
  'waf | web application firewall | web application firewalls',
  'patching | patch management | security patches | patches',
  'logging | audit logs | audit logging | audit trail | logs',
  'accessreview | access review | access reviews | review access rights | user access review | access recertification',
  'thirdparty | third party | third parties | third-party | subprocessor | sub-processor | vendor | vendors | subcontractor',
  'datacenter | data center | data centre | datacenter | hosting facility',
  'cloudprovider | aws | amazon web services | azure | gcp | google cloud | hosting provider | cloud provider | infrastructure provider | iaas provider',
  'admin | administrator | administrators | admins | privileged user | privileged users | privileged account | privileged accounts',
  'require | required | requires | requiring | mandatory | mandated | mandate | enforce | enforced | enforces | enforcing',
  'pci | pci dss | pci-dss | credit card | credit cards | cardholder data | payment card | payment cards',
  'segmentation | network segmentation | segmented network | network segregation | segregated networks',
  'physicalsecurity | physical security | physical access control | physical access controls | physical access',
  'changemanagement | change management | change control | change controls',
  'awareness | security awareness training | security awareness | awareness training | security training',
  'keymanagement | key management | encryption keys | cryptographic keys',
  'retention | data retention | retention policy | retention period | records retention',
  'disposal | data disposal | data destruction | secure deletion | secure disposal | media sanitization | media sanitisation',
  'riskassessment | risk assessment | risk assessments | risk analysis',
  'assetinventory | asset inventory | asset management | inventory of assets',
  'hardening | system hardening | secure configuration | configuration baseline | hardened',
  'passwordpolicy | password policy | password complexity | password requirements',
  'sessiontimeout | session timeout | idle timeout | inactivity timeout | automatic logout',
  // a documented way of doing something: questionnaires use these words interchangeably
  'procedure | procedures | process | processes | plan | plans | program | programme | programs',
  // how often, in the words that say it ('every year', 'once a year'); a bare 'day' or 'year'
  // ('within 30 days', 'kept for 7 years') says how long, not how often
  'annual | annually | yearly | every year | each year | per year | once a year | once per year | twice a year | every twelve months | every 12 months',
  'quarterly | every quarter | each quarter | per quarter | every three months | every 3 months',
  'monthly | every month | each month | per month | once a month',
  'weekly | every week | each week | per week | once a week',
  'daily | every day | each day | per day | once a day',
  'before | prior to',
  // identifiers, not intrusion detection systems ('user IDs', 'session IDs')
  'identifier | identifiers | user id | user ids | session id | session ids | unique id | unique ids | customer ids | record ids | tenant ids | account ids',
  'surveillance | video surveillance | cctv | security cameras | camera surveillance',
].map((group) => group.split(' | '))

const STOP = new Set(
  'a an the and or of to in on for by with at from as is are was were be been being do does did you your yours we our us it its this that these those there their they them any all each per if than then so such can could will would should shall may must have has had not no nor into out over under about which who whom whose what when where why how also other please provide describe explain list include including includes e g eg i ie etc use used using within via upon able'.split(
    ' ',
  ),
)

/** Questionnaire wording that does not change the practice asked about ('in place' too). */
const FILLER = new Set(['potential', 'actual', 'existing', 'currently'])

/**
 * The synonym forms as a trie of words, each path ending in its group's canonical term. A form of
 * several words also matches written as one word ('multifactor') or hyphenated ('back-up').
 */
interface PhraseNode {
  next: Map<string, PhraseNode>
  canonical: string | null
}
const PHRASES: PhraseNode = { next: new Map(), canonical: null }
function addPhrase(words: string[], canonical: string) {
  let node = PHRASES
  for (const word of words) {
    let child = node.next.get(word)
    if (!child) {
      child = { next: new Map(), canonical: null }
      node.next.set(word, child)
    }
    node = child
  }
  node.canonical ??= canonical
}
for (const [canonical, ...forms] of SYNONYMS) {
  for (const form of [canonical as string, ...forms]) {
    const words = form.split(/[^a-z0-9]+/).filter(Boolean)
    addPhrase(words, canonical as string)
    if (words.length > 1) addPhrase([words.join('')], canonical as string)
  }
}

/** The node a word leads to, or the node its singular leads to when that ends a phrase. */
function step(node: PhraseNode, word: string): { node: PhraseNode; plural: boolean } | null {
  const exact = node.next.get(word)
  if (exact) return { node: exact, plural: false }
  for (const singular of [word.slice(0, -1), word.slice(0, -2)]) {
    if (singular.length < 2 || !word.endsWith(word.length - singular.length === 1 ? 's' : 'es'))
      continue
    const found = node.next.get(singular)
    if (found?.canonical) return { node: found, plural: true }
  }
  return null
}

/** Words with every synonym form replaced by its canonical term, longest form first. */
function fold(words: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length; ) {
    let node = PHRASES
    let found: string | null = null
    let end = i
    for (let j = i; j < words.length; j++) {
      const next = step(node, words[j] as string)
      if (!next) break
      node = next.node
      if (node.canonical) {
        found = node.canonical
        end = j + 1
      }
      if (next.plural) break
    }
    if (found) {
      out.push(found)
      i = end
    } else {
      out.push(words[i] as string)
      i += 1
    }
  }
  return out
}

/** Stems already made: a corpus repeats its words, and stemming is most of the cost of terms. */
const STEMS = new Map<string, string>()

function stem(word: string) {
  if (word.length <= 4) return word
  const known = STEMS.get(word)
  if (known !== undefined) return known
  const stemmed = stemWord(word)
  if (STEMS.size > 200_000) STEMS.clear()
  STEMS.set(word, stemmed)
  return stemmed
}

function stemWord(word: string) {
  if (/\d/.test(word)) return word
  return word
    .replace(/(ational|ation|ations)$/, 'ate')
    .replace(/(ies)$/, 'y')
    .replace(/(ing|edly|ed|ly|es|s)$/, '')
    .replace(/(ment|ments)$/, '')
    .replace(/(?<=[a-z]{3})e$/, '')
}

/**
 * The synonym groups that name a security practice (something an organisation does or does not
 * do), as their terms. The other groups name objects (PHI, data centers, vendors) or plain words
 * (require, administrator): answers about them say nothing about one another.
 */
const PRACTICES =
  'mfa sso disasterrecovery businesscontinuity encryptrest encrypttransit pentest rbac siem ids dlp vpn ddos sdlc incidentresponse vulnscan backup bgcheck privacypolicy antivirus firewall waf patching logging accessreview segmentation surveillance physicalsecurity changemanagement awareness keymanagement retention disposal riskassessment assetinventory hardening passwordpolicy sessiontimeout'.split(
    ' ',
  )
export const PRACTICE_TERMS: ReadonlySet<string> = new Set(PRACTICES.map((term) => stem(term)))

/** Folds synonyms and returns the content words of a text, stemmed. */
export function terms(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter(
      (word, i, all) => word && !FILLER.has(word) && !(word === 'place' && all[i - 1] === 'in'),
    )
  return fold(words)
    .filter((word) => word.length > 1 && !STOP.has(word))
    .map(stem)
}

/** The words of each synonym group's forms, stemmed, by the group's term ('sdlc': software, development, lifecycle...). */
const FORM_WORDS = new Map<string, Set<string>>()
for (const [canonical, ...forms] of SYNONYMS) {
  const words = new Set<string>()
  for (const form of forms)
    for (const word of form.split(/[^a-z0-9]+/))
      if (word.length > 1 && !STOP.has(word)) words.add(stem(word))
  FORM_WORDS.set(stem(canonical as string), words)
}

/**
 * A text's terms with the words its folded synonyms stand for: a context that says 'SDLC' holds
 * 'lifecycle', one that says 'audit logs' holds 'audit'.
 */
export function withFormWords(list: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const term of list) {
    out.add(term)
    for (const word of FORM_WORDS.get(term) ?? []) out.add(word)
  }
  return out
}

/** Where a question turns from the practice to its purpose ('... to prevent unauthorized access'). */
export const PURPOSE =
  /\b(?:in order )?(?:to|so as to) (?:prevent|detect|protect|ensure|avoid|mitigate|reduce|minimi[sz]e|limit|stop|guard)\b/i

/** Words that deny what follows them, and pairs that replace it ('instead of providing backups'). */
const NEGATION_WORDS = new Set(
  'not no never none cannot cant dont doesnt isnt arent wont havent hasnt without unless neither nor'.split(
    ' ',
  ),
)
const NEGATION_PAIRS = new Set(['instead of', 'rather than'])
/** Phrases with a negation word that deny nothing: 'including but not limited to', 'not only', 'no later than'. */
const NOT_DENYING =
  /\b(?:but\s+)?not\s+limited\s+to\b|\bnot\s+only\b|\bno\s+(?:later|more|less|fewer|sooner)\s+than\b|\bwithout\s+limitation\b|\bnot\s+exceed(?:ing)?\b/gi

/** A sentence's words, lower case, apostrophes dropped, its idioms that deny nothing left out. */
const plainWords = (sentence: string) =>
  sentence
    .replace(NOT_DENYING, ' ')
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

/** Where a negation starts in a sentence's words: the first word after it, or -1. */
const negationAt = (words: string[], index: number) => {
  const word = words[index] as string
  if (NEGATION_PAIRS.has(`${word} ${words[index + 1]}`)) return index + 2
  return NEGATION_WORDS.has(word) ? index + 1 : -1
}

/** Whether a sentence says not, no, never, instead of... (idioms such as 'not limited to' aside). */
export function isNegated(sentence: string): boolean {
  const words = plainWords(sentence)
  return words.some((_, index) => negationAt(words, index) >= 0)
}

/**
 * Whether a negation in the sentence bears on one of the wanted terms: one of the `reach` words
 * after it ('we do not encrypt backups'), not a clause away ('will not interfere with the ongoing
 * investigation'); 'without' denies what follows it at once ('without encryption').
 */
export function deniesTerms(sentence: string, wanted: Set<string>, reach: number): boolean {
  const words = plainWords(sentence)
  return words.some((word, index) => {
    const from = negationAt(words, index)
    if (from < 0) return false
    const span = word === 'without' ? Math.min(reach, 2) : reach
    return words.slice(from, from + span).some((next) => terms(next).some((t) => wanted.has(t)))
  })
}

/** Terms plus adjacent pairs: the features of a question for similarity. */
export function features(text: string): string[] {
  const words = terms(text)
  const pairs = words.slice(1).map((word, i) => `${words[i]}_${word}`)
  return [...words, ...pairs]
}

/** A TF-IDF space over a collection of texts; cosine similarity between any two texts. */
export class TfIdf {
  private readonly df = new Map<string, number>()
  private docs = 0

  add(featureList: string[]) {
    this.docs += 1
    for (const feature of new Set(featureList))
      this.df.set(feature, (this.df.get(feature) ?? 0) + 1)
  }

  idf(feature: string) {
    return Math.log(1 + (this.docs + 1) / ((this.df.get(feature) ?? 0) + 1))
  }

  vector(featureList: string[]): Map<string, number> {
    const tf = new Map<string, number>()
    for (const feature of featureList) tf.set(feature, (tf.get(feature) ?? 0) + 1)
    const vector = new Map<string, number>()
    let norm = 0
    for (const [feature, count] of tf) {
      const weight = (1 + Math.log(count)) * this.idf(feature)
      vector.set(feature, weight)
      norm += weight * weight
    }
    norm = Math.sqrt(norm) || 1
    for (const [feature, weight] of vector) vector.set(feature, weight / norm)
    return vector
  }
}

export function cosine(a: Map<string, number>, b: Map<string, number>) {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let dot = 0
  for (const [feature, weight] of small) dot += weight * (large.get(feature) ?? 0)
  return dot
}

/** Sentences of a passage, for extractive answers. */
/** A line that opens an item of a list: a bullet, a dash, a number. */
const ITEM_START = /^\s*(?:[•·▪◦*–-]|\(?[0-9]{1,2}[.)]|[a-z][.)]\s)/
/** Fewest words of a line that is prose wrapped onto the next line, not a heading. */
const WRAPPED_WORDS = 8

/**
 * Lines with the prose that a page wrapped rejoined: a long line that does not end a sentence
 * continues on the next ('To help strengthen our Business Continuity Plan, our Enterprise Risk
 * Steering' / 'Committee meets quarterly.'), unless that one opens a list item.
 */
function joinWrapped(lines: string[]): string[] {
  const out: string[] = []
  let open = false
  for (const line of lines) {
    const trimmed = line.trim()
    if (!trimmed) continue
    if (open && !ITEM_START.test(trimmed)) out[out.length - 1] += ` ${trimmed}`
    else out.push(trimmed)
    const last = out[out.length - 1] as string
    open = !/[.!?:;)\]”"]$/.test(last) && last.split(/\s+/).length >= WRAPPED_WORDS
  }
  return out
}

export function sentences(text: string): string[] {
  // lines first (a heading is not part of the sentence below it), then sentence ends
  return joinWrapped(text.split(/\n+/))
    .flatMap((line) => line.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z0-9“"(])/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 20)
}

/** The yes/no/n-a value an answer text starts with, normalised ('yes', 'no', 'na'), or null. */
export function leadingChoice(text: string): 'yes' | 'no' | 'na' | null {
  // list markers a dropdown may carry: '1) Yes', 'a. No', '(2) N/A'
  const head = text
    .trim()
    .toLowerCase()
    .replace(/^\(?([0-9]{1,2}|[a-z])[).:]\s+/, '')
  // N/A first: 'n/a' starts with the letter n, which alone is a No
  if (/^(n\/a|n\.a\.|na|not applicable)(?![a-z])/.test(head)) return 'na'
  if (/^(yes|y|true|compliant|fully compliant|in place|implemented)\b/.test(head)) return 'yes'
  if (/^(no|n|false|non-compliant|not compliant)(?![a-z/])/.test(head)) return 'no'
  return null
}

/** Maps a yes/no/n-a value (or any text) onto a vocabulary entry, or null when none fits. */
export function toVocabulary(value: string, vocabulary: string[]): string | null {
  const norm = (text: string) => {
    const t = text.trim().toLowerCase().replace(/\s+/g, ' ')
    if (/^(n\/?a|not applicable)$/.test(t)) return 'na'
    return t
  }
  const wanted = norm(value)
  const exact = vocabulary.find((entry) => norm(entry) === wanted)
  if (exact) return exact
  const choice = leadingChoice(value)
  if (!choice) return null
  return (
    vocabulary.find((entry) => leadingChoice(entry) === choice && norm(entry).length <= 20) ?? null
  )
}

/**
 * A question without its examples: '(e.g., disk encryption)', '[SAML2, OIDC]', 'such as RBAC, ABAC
 * or PBAC', 'all of the following: login, logout, ...' illustrate what is asked; they are not its
 * scope.
 */
export const withoutExamples = (text: string) =>
  text
    .replace(/\((?:e\.?g|i\.?e|for example|such as)\b[^)]*\)|\[[^\]]*\]/gi, ' ')
    .replace(/[,;:]?\s*\b(?:such as|for example|e\.g\.|including|the following)\b[^?]*/gi, ' ')
