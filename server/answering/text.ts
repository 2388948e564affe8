/**
 * Text for matching questions: lower case, domain synonyms folded onto one term (MFA and
 * multi-factor authentication are one idea), stop words dropped, a light stemmer, and bigrams so
 * that word order carries some weight.
 */

/** Each group names one idea; the first entry is its canonical term. */
export const SYNONYMS: string[][] = [
  [
    'mfa',
    'multi factor authentication',
    'multifactor authentication',
    'multi-factor authentication',
    '2fa',
    'two factor authentication',
    'two-factor authentication',
    'strong authentication',
  ],
  [
    'sso',
    'single sign on',
    'single sign-on',
    'saml',
    'federated authentication',
    'federated identity',
  ],
  ['disasterrecovery', 'disaster recovery', 'dr plan', 'drp'],
  ['businesscontinuity', 'business continuity', 'bcp', 'continuity plan'],
  [
    'encryptrest',
    'encryption at rest',
    'encrypted at rest',
    'data at rest',
    'stored data encrypted',
    'encrypt data at rest',
  ],
  [
    'encrypttransit',
    'encryption in transit',
    'encrypted in transit',
    'data in transit',
    'tls',
    'ssl',
    'transport layer security',
    'https',
  ],
  [
    'pentest',
    'penetration test',
    'penetration testing',
    'pen test',
    'pentesting',
    'penetration tests',
  ],
  ['soc2', 'soc 2', 'soc ii', 'ssae 18', 'ssae18', 'soc2 type 2', 'soc 2 type ii'],
  ['pii', 'personally identifiable information', 'personal data', 'personal information'],
  ['phi', 'protected health information', 'health information', 'hipaa'],
  ['rbac', 'role based access control', 'role-based access control', 'role based access'],
  [
    'siem',
    'security information and event management',
    'log management',
    'centralized logging',
    'centralised logging',
  ],
  [
    'ids',
    'intrusion detection',
    'intrusion detection system',
    'ips',
    'intrusion prevention',
    'intrusion prevention system',
    'intrusions',
    'intrusion monitoring',
  ],
  ['dlp', 'data loss prevention', 'data leakage prevention'],
  ['vpn', 'virtual private network'],
  ['ddos', 'distributed denial of service', 'denial of service', 'dos attack'],
  [
    'sdlc',
    'software development life cycle',
    'software development lifecycle',
    'secure development lifecycle',
    'ssdlc',
  ],
  ['incidentresponse', 'incident response', 'incident management', 'security incident'],
  [
    'vulnscan',
    'vulnerability scan',
    'vulnerability scanning',
    'vulnerability scans',
    'vulnerability assessment',
  ],
  ['backup', 'backups', 'back up', 'back-up', 'data backup'],
  [
    'bgcheck',
    'background check',
    'background checks',
    'background screening',
    'criminal background',
  ],
  ['privacypolicy', 'privacy policy', 'data privacy policy', 'privacy notice'],
  ['iso27001', 'iso 27001', 'iso/iec 27001', 'iso27001'],
  ['gdpr', 'general data protection regulation'],
  ['ferpa', 'family educational rights and privacy act'],
  [
    'wcag',
    'web content accessibility guidelines',
    'vpat',
    'accessibility conformance report',
    'acr',
  ],
  [
    'antivirus',
    'anti-virus',
    'anti virus',
    'malware protection',
    'anti-malware',
    'antimalware',
    'endpoint protection',
  ],
  ['firewall', 'firewalls', 'web application firewall', 'waf'],
  ['patching', 'patch management', 'security patches', 'patches'],
  ['logging', 'audit logs', 'audit logging', 'audit trail', 'logs'],
  [
    'accessreview',
    'access review',
    'access reviews',
    'review access rights',
    'user access review',
    'access recertification',
  ],
  [
    'thirdparty',
    'third party',
    'third-party',
    'subprocessor',
    'sub-processor',
    'vendor',
    'vendors',
    'subcontractor',
  ],
  ['datacenter', 'data center', 'data centre', 'datacenter', 'hosting facility'],
  ['cloudprovider', 'aws', 'amazon web services', 'azure', 'gcp', 'google cloud'],
  [
    'admin',
    'administrator',
    'administrators',
    'admins',
    'privileged user',
    'privileged users',
    'privileged account',
    'privileged accounts',
  ],
  [
    'require',
    'required',
    'requires',
    'requiring',
    'mandatory',
    'mandated',
    'mandate',
    'enforce',
    'enforced',
    'enforces',
    'enforcing',
  ],
  [
    'pci',
    'pci dss',
    'pci-dss',
    'credit card',
    'credit cards',
    'cardholder data',
    'payment card',
    'payment cards',
  ],
  [
    'segmentation',
    'network segmentation',
    'segmented network',
    'network segregation',
    'segregated networks',
  ],
  // a documented way of doing something: questionnaires use these words interchangeably
  [
    'procedure',
    'procedures',
    'process',
    'processes',
    'plan',
    'plans',
    'program',
    'programme',
    'programs',
  ],
  ['surveillance', 'video surveillance', 'cctv', 'security cameras', 'camera surveillance'],
]

const STOP = new Set(
  'a an the and or of to in on for by with at from as is are was were be been being do does did you your yours we our us it its this that these those there their they them any all each per if than then so such can could will would should shall may must have has had not no nor into out over under about which who whom whose what when where why how also other please provide describe explain list include including includes e g eg i ie etc use used using within via upon able'.split(
    ' ',
  ),
)

/** Questionnaire wording that does not change the practice asked about. */
const FILLER = /\b(in place|potential|actual|existing|currently)\b/g

/** Every synonym form in one alternation, longest first, mapped to its group's canonical term. */
const CANONICAL = new Map<string, string>()
for (const [canonical, ...forms] of SYNONYMS) {
  for (const form of [canonical as string, ...forms])
    CANONICAL.set(form.replace(/[ -]/g, ' '), canonical as string)
}
const PHRASE = new RegExp(
  `\\b(${[...CANONICAL.keys()]
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '[ -]?'))
    .join('|')})(?:e?s)?\\b`,
  'g',
)

function stem(word: string) {
  if (word.length <= 4 || /\d/.test(word)) return word
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
const PRACTICES = [
  'mfa',
  'sso',
  'disasterrecovery',
  'businesscontinuity',
  'encryptrest',
  'encrypttransit',
  'pentest',
  'rbac',
  'siem',
  'ids',
  'dlp',
  'vpn',
  'ddos',
  'sdlc',
  'incidentresponse',
  'vulnscan',
  'backup',
  'bgcheck',
  'privacypolicy',
  'antivirus',
  'firewall',
  'patching',
  'logging',
  'accessreview',
  'segmentation',
  'surveillance',
]
export const PRACTICE_TERMS: ReadonlySet<string> = new Set(PRACTICES.map((term) => stem(term)))

/** Folds synonyms and returns the content words of a text, stemmed. */
export function terms(text: string): string[] {
  const folded = ` ${text.toLowerCase().replace(/[’']/g, '').replace(FILLER, ' ')} `.replace(
    PHRASE,
    (match, form: string) => ` ${CANONICAL.get(form.replace(/[ -]/g, ' ')) ?? match} `,
  )
  return folded
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP.has(word))
    .map(stem)
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
export function sentences(text: string): string[] {
  // lines first (a heading is not part of the sentence below it), then sentence ends
  return text
    .split(/\n+/)
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
  if (/^(yes|y|true|compliant|fully compliant|in place|implemented)\b/.test(head)) return 'yes'
  if (/^(no|n|false|non-compliant|not compliant)\b/.test(head)) return 'no'
  if (/^(n\/?a|not applicable)\b/.test(head)) return 'na'
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
