import { mentions } from './practices.ts'
import { asQuote } from './quoting.ts'
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
  /\b(?:customers?|clients?|institutions?|tenants?|subscribers?|end users?)\s+(?:(?:are|is|remain)\s+(?:(?:solely|fully|ultimately)\s+)?(?:responsible|encouraged|advised|expected|required|accountable)|should|must|need to|(?:may )?wish to|(?:develop|maintain|create|establish|implement|manage|configure|control|retain)s?\b)/i

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

/**
 * (Words that are nouns as often as commands, 'Audit logs are kept', 'Test results', are not
 * taken for commands; 'Review of access', 'Use of encryption' name what follows.)
 *
 * A requirement rather than a statement (issue 27): a control's or a standard's text says what
 * should be done, not what the organisation does. It begins with a control's id ('CCC-08 ...'),
 * or with a verb of command and no subject ('Establish, document, approve ... policies',
 * 'Conduct independent audits at least annually'), or has a provider in general as its subject of
 * 'should' ('The service provider should ensure ...').
 */
const CONTROL_ID = /^\W*[A-Z]{2,4}-\d{1,2}(?:\.\d{1,2})*\b/
const COMMANDS = new Set(
  (
    'establish define implement manage follow provide conduct exercise determine classify ensure develop ' +
    'maintain perform apply identify adopt enforce specify require take verify validate segment ' +
    'separate encrypt generate retain notify evaluate communicate approve assess deploy configure ' +
    'restrict revoke prohibit dispose destroy educate investigate detect prevent protect utilize ' +
    'employ allow authorize disseminate coordinate integrate select consider incorporate obtain ' +
    'collect minimize minimise align use review monitor revalidate limit track train'
  ).split(' '),
)
/** A norm stated of providers in general ('CSPs periodically review risk factors ...'). */
/** Words that command as often as they name ('Report breaches', 'Report generation is ...'). */
const AMBIGUOUS = new Set(
  'audit control record report test plan document schedule update inventory design'.split(' '),
)
const GENERIC_SUBJECT =
  /^\W*(?:CSPs|cloud service providers|service providers|providers|organi[sz]ations|vendors|suppliers)\s+(?!(?:who|that|which|using|use)\b)\w+/i
const GENERIC_SHOULD =
  /\b(?:the\s+)?(?:service\s+|cloud\s+)?(?:providers?|organi[sz]ations?|csps?|vendors?|suppliers?|entit(?:y|ies))\s+(?:should|shall|must|is expected to|are expected to)\b/i
export function isRequirement(sentence: string): boolean {
  const plain = sentence.replace(/^[\s•·*–\-'"‘“(]+/, '')
  if (CONTROL_ID.test(plain)) return true
  const [first = '', second = ''] = plain.split(/[\s,]+/)
  const verb = first.toLowerCase()
  // 'Review of access is quarterly' names a review; 'Monitoring is continuous' is no command
  // ('Define and implement ...' commands twice; 'Review and approval of changes is ...' names)
  const third = plain.split(/[\s,]+/)[2]?.toLowerCase() ?? ''
  // a word as often a noun commands only when no 'is', 'are' or 'has' follows it closely ('Report
  // security breaches ...' commands; 'Audit logs are kept' names)
  const nounLike =
    AMBIGUOUS.has(verb) &&
    plain
      .split(/[\s,]+/)
      .slice(1, 3)
      .some((word) => /^(?:is|are|was|were|has|have|had|show|shows|of)$/i.test(word))
  if (
    (COMMANDS.has(verb) || (AMBIGUOUS.has(verb) && !nounLike)) &&
    /^[A-Z]/.test(first) &&
    !/^(?:of|is|are|was|were|has|have|by)$/i.test(second) &&
    (second.toLowerCase() !== 'and' || COMMANDS.has(third))
  )
    return true
  return GENERIC_SHOULD.test(plain) || GENERIC_SUBJECT.test(plain)
}

/**
 * What could be done rather than what is: an option the reader has ('It is possible to ... by
 * leveraging host-based intrusion detection', 'You can choose to replicate and back up content',
 * 'For customers who choose to use ...'), a promise ('commits to high availability in its SLA'),
 * advice ('AWS recommends ...'), a duty left with the customer ('Backup and retention policies are
 * the responsibility of the customer'), or a definition ('IPsec is a protocol suite for ...').
 */
const POSSIBILITY =
  /\b(?:it is (?:also )?possible|customers? (?:can|may) (?:use|choose|enable|configure|leverage|opt)\b|(?:customers?|you|those) who (?:choose|wish|want|opt)\b|commit(?:s|ted)? to\b|you (?:can|could|may|might|are able)|^\W*you have\b|recommends?\b|recommended\b|(?:is|are|remains?) (?:the )?(?:sole )?responsibility of (?:the |our )?(?:customers?|clients?|users?|tenants?))/i
const DEFINITION =
  /^\W*(?:[A-Z][\w-]*\s+){0,3}(?:is|are)\s+an?\s+(?:\w+\s+){0,3}(?:for|that|which|used)\b/
/**
 * Issue 38: a term defined ('Reasonable inquiry means an inquiry designed to ...', '"Covered
 * equipment" refers to ...'): what a word means, in a policy's or a law's definitions.
 */
const TERM_DEFINED =
  /^\W*(?:[\w-]+\s+){0,4}[\w-]+['"’”]?\s+(?:means|shall mean|refers to|is defined as|are defined as)\b/i
/**
 * What a kind of document does in general ('An incident response policy clearly defines the
 * roles ...', 'A business continuity plan describes how ...'): it says what such a document is
 * for, not that the organisation has one ('Our incident response policy defines ...' does).
 */
const DOCUMENT_IN_GENERAL =
  /^\W*an?\s+(?:[\w-]+\s+){0,3}(?:policy|plan|procedure|program|programme|standard|process)\s+(?:\w+ly\s+)?(?:defines|describes|outlines|sets out|establishes|documents|provides|helps|ensures|specifies|explains)\b/i
/**
 * A policy's sanction clause ('Violating this policy is grounds for termination', 'Violations of
 * these procedures may result in disciplinary action'): what befalls whoever breaks it.
 */
const SANCTION =
  /\b(?:violat\w*|breach(?:es|ing)? of|non-?compliance with|fail\w* to comply with)\s+(?:of\s+)?(?:this|these|the|our|any|such)\s+(?:policy|policies|procedures?|standards?|rules?)\b.*\b(?:grounds for|result in|lead to|subject to|disciplinary|termination|serious offen[cs]e)/i

/**
 * A sentence whose claim is that something is audited ('The data sanitisation processes are
 * subject to audit under ISO 27001', 'Privileged access controls are reviewed by an independent
 * auditor') states the audit, not what the audited practice does: a lead for the practice.
 */
const AUDITED =
  /\b(?:(?:is|are) subject to (?:an? )?(?:independent |external |third[- ]party )?(?:audits?|review)|(?:reviewed|audited|assessed|validated) by (?:an? |our )?(?:independent |external |third[- ]party )?(?:auditors?|assessors?))\b/i
const AUDIT_PRACTICES = new Set([
  'independent-assessment',
  'soc2-report',
  'security-framework',
  'internal-audit',
])

/**
 * Certifications, attestations and standards by name: a sentence naming several of them ('audited
 * under ISO 27001, SOC 1, SOC 2, SOC 3 and PCI-DSS', 'agencies can be compliant under FISMA,
 * FedRAMP, FIPS 140-2 ...') is a list; it states none of its items (issue 27).
 */
const CERTIFICATIONS =
  /\b(?:ISO(?:\/IEC)?\s?\d{4,5}|SOC\s?[123]\b|PCI[- ]?DSS|FedRAMP|HIPAA|FISMA|FERPA|GDPR|HITRUST|FIPS(?:\s?(?:PUB\s?)?140-[123])?|NIST(?:\s?SP)?(?:\s?800-\d+)?|CSA\s?STAR|Cyber\s?Essentials|IRAP|C5|CJIS|ITAR|SOX|COBIT|CMMC|TISAX|ENS|MTCS|K-ISMS|DoD\s?SRG)/gi
const CERTIFICATION_LIST = 3
const CERTIFICATION_PRACTICES = new Set([
  'soc2-report',
  'security-framework',
  'independent-assessment',
  'validated-cryptography',
  'internal-audit',
])
/** The certifications and standards a text names, each once, as written. */
export const certificationsOf = (text: string) => {
  const named = new Map<string, string>()
  for (const name of text.match(CERTIFICATIONS) ?? []) {
    const key = certificationKey(name)
    if (!named.has(key)) named.set(key, name)
  }
  return [...named.values()]
}
/** A certification's name folded for comparison ('FIPS PUB 140-2' and 'fips 140-2' meet). */
export const certificationKey = (name: string) =>
  name.toLowerCase().replace(/\bpub\b|\bsp\b|\/iec|[\s-]+/g, '')
const certificationsIn = (sentence: string) => certificationsOf(sentence).length

/**
 * Whether a sentence says what is done (not what should or could be, what a word means, what a
 * kind of document is for, or what befalls whoever breaks a policy).
 */
export const saysWhatIsDone = (sentence: string) =>
  !isRequirement(sentence) &&
  !POSSIBILITY.test(sentence) &&
  !DEFINITION.test(sentence) &&
  !TERM_DEFINED.test(sentence) &&
  !DOCUMENT_IN_GENERAL.test(sentence) &&
  !SANCTION.test(sentence)

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
  let named = mentions(sentenceTerms).map((m) => m.practice)
  if (!named.length) return named
  // what should be done, what could be done, and what a word means state no practice
  if (!saysWhatIsDone(sentence)) return []
  if (AUDITED.test(sentence)) named = named.filter((id) => AUDIT_PRACTICES.has(id))
  // a list of certifications or standards names them, and states none of them
  if (certificationsIn(sentence) >= CERTIFICATION_LIST)
    named = named.filter((id) => !CERTIFICATION_PRACTICES.has(id))
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
  // quoted whole and from its claim (a piece of a sentence a page cut states nothing)
  for (const sentence of sentences(text).flatMap((raw) => asQuote(raw) ?? [])) {
    // a question restated, or a heading, states nothing
    // (a bullet of a few words, 'Yearly backups for 10 years', says what but not that)
    const words = sentence.replace(/^[\s•·*–-]+/, '').split(/\s+/)
    // and a pointer ('please see our Continuity Plan') states nothing itself
    if (isQuestion(sentence) || words.length < 7 || POINTER.test(sentence)) continue
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

/**
 * A question, whole or cut short by the page ('Are supply chain agreements between CSPs and'), or
 * a topic put as one ('How their information is shared ...'): it asks, and states nothing.
 */
export const isQuestion = (sentence: string) =>
  sentence.trim().endsWith('?') ||
  /^\W*(?:are|is|do|does|did|has|have|can|will|shall|should|was|were)\s+(?!not\b)/i.test(
    sentence,
  ) ||
  // a topic put as a question ('How their information is shared with third parties')
  /^\W*(?:how|what|which|why)\s/i.test(sentence)

/** A sentence that sends the reader elsewhere for the practice rather than stating it. */
const POINTER = /\b(?:please )?(?:see|refer to)\b|\bfor more (?:detail|information)\b/i
