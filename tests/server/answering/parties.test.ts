import { describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  kindOfReason,
  Library,
  type LibraryEntry,
  type PassageHit,
  PassageIndex,
  practiceAnswer,
  THIRD_PARTY_CAP,
} from '../../../server/answering/engine.ts'
import { PartyBook } from '../../../server/answering/parties.ts'
import { sentences } from '../../../server/answering/text.ts'
import { spaceOf, YES_NO } from './passages.ts'

/**
 * Parties (issue 38): whose practice a sentence states, and what the engine makes of another
 * party's sentence. The fixture passages below are ours, written for these tests; each expected
 * attribution was judged by this rule:
 *
 *   A sentence states the organisation's practice only when its subject is the organisation, its
 *   product or its people ('we', 'our', one of its names), or it has no named subject in a
 *   document of the organisation's. Its subject (or the owner of what it speaks of) being another
 *   named party (a provider, a sub-processor, a customer, a regulator), a law's, a standard's or
 *   an agreement's text, or a pronoun or role ('it', 'the provider') that stands for one in its
 *   passage, it states that party's. In a document whose sentences mostly speak of one other
 *   party, a sentence with no named subject is that party's.
 *
 * Organisations: Acme Learning (the organisation, with its product Acme Campus), Orbit Cloud and
 * Nimbus Hosting (cloud providers), Northfield University (a customer); AWS, Google and Microsoft
 * as the parties vendors' documents name.
 */

let nextId = 1
const passage = (fileId: number, title: string, text: string): PassageHit => ({
  id: nextId++,
  fileId,
  source: 'file',
  title,
  text,
  location: { page: 1 },
  rank: 1,
})

/** A vendor's notes on its cloud provider's contract: a document mostly about Orbit Cloud. */
const NOTES = [
  passage(
    1,
    'FERPA review notes.pdf',
    'Acme Learning hosts its platform with Orbit Cloud. These notes review the Orbit Cloud customer agreement for FERPA.',
  ),
  passage(
    1,
    'FERPA review notes.pdf',
    'Under the Orbit Cloud DPA, Orbit Cloud encrypts all customer content at rest with AES-256 encryption. Orbit Cloud will not use customer content to train its models. It replicates customer content to a second region.',
  ),
  passage(
    1,
    'FERPA review notes.pdf',
    'Customer content is deleted within 30 days of termination. Orbit Cloud’s personnel are screened with background checks before they are hired. The provider rotates its encryption keys every year.',
  ),
  passage(
    1,
    'FERPA review notes.pdf',
    'FERPA requires that education records are disclosed only with the written consent of the parent. Section 4.2 of the agreement requires encryption of data in transit. We review these terms every year with our counsel.',
  ),
]

/** The organisation's own overview: its sentences, some naming the providers it uses as tools. */
const OVERVIEW = passage(
  2,
  'Security overview.pdf',
  [
    'We host on AWS and encrypt data at rest with AES-256.',
    'AWS encrypts the storage volumes of its data centers.',
    'Google’s terms state that customer data is not used for advertising.',
    'Our platform runs on Nimbus Hosting in two regions.',
    'We keep Northfield University’s records apart from those of other customers.',
    'Northfield University requires every vendor to encrypt its backups.',
    'ISO 27001 requires an information security policy.',
    'Acme Campus encrypts every database with AES-256.',
    'Acme Learning’s security team reviews access every quarter.',
    'Under the Microsoft DPA, Microsoft will notify customers of a breach within 72 hours.',
    'All production systems are scanned for vulnerabilities every week.',
  ].join(' '),
)

/** The organisation's names as its library gives them: a completed questionnaire's fields. */
const entry = (question: string, answer: string): LibraryEntry => ({
  source: 'file',
  id: nextId++,
  fileId: 90,
  title: 'Acme_Campus_HECVAT.xlsx',
  question,
  answer,
  detail: '',
  dropdown: null,
  location: null,
})
const LIBRARY = new Library([
  entry('Vendor Name', 'Acme Learning'),
  entry('Product Name', 'Acme Campus'),
])

const whoseEach = (passages: PassageHit[], known: string[]) => {
  const parties = new PartyBook(passages).of(known)
  return passages.flatMap((hit) =>
    sentences(hit.text).map((sentence): [string, string | null] => [
      sentence,
      parties.whose(hit, sentence)?.name ?? null,
    ]),
  )
}

describe('whose practice a sentence states', () => {
  const judged = new Map(whoseEach([...NOTES, OVERVIEW], ['Acme Learning', 'Acme Campus']))
  const of = (start: string) =>
    [...judged.entries()].find(([sentence]) => sentence.startsWith(start))?.[1]

  it("reads the organisation's own sentences as its own, a provider named as a tool included", () => {
    expect(of('We host on AWS and encrypt data at rest')).toBeNull()
    expect(of('Our platform runs on Nimbus Hosting')).toBeNull()
    expect(of('We keep Northfield University’s records')).toBeNull()
    expect(of('Acme Campus encrypts every database')).toBeNull()
    expect(of('Acme Learning’s security team')).toBeNull()
    expect(of('All production systems are scanned')).toBeNull()
    expect(of('We review these terms every year')).toBeNull()
  })

  it('reads a named provider, a customer, a law and an agreement as the party they are', () => {
    expect(of('AWS encrypts the storage volumes')).toBe('AWS')
    expect(of('Google’s terms state')).toBe('Google')
    expect(of('Under the Microsoft DPA, Microsoft will')).toBe('Microsoft')
    expect(of('Northfield University requires')).toBe('Northfield University')
    expect(of('ISO 27001 requires')).toBe('ISO 27001')
    expect(of('FERPA requires')).toBe('FERPA')
    expect(of('Section 4.2 of the agreement')).toBe('Section 4.2 of the agreement')
    expect(of('Under the Orbit Cloud DPA, Orbit Cloud encrypts')).toBe('Orbit Cloud')
  })

  it('resolves a pronoun and a role to the party named before them in the passage', () => {
    expect(of('It replicates customer content')).toBe('Orbit Cloud')
    expect(of('The provider rotates its encryption keys')).toBe('Orbit Cloud')
  })

  it('recognises a document that mostly discusses another party', () => {
    const parties = new PartyBook([...NOTES, OVERVIEW]).of(['Acme Learning'])
    expect(parties.documentParty(1)?.name).toBe('Orbit Cloud')
    expect(parties.documentParty(2)).toBeNull()
    // there, a sentence with no named subject is that party's
    expect(of('Customer content is deleted within 30 days')).toBe('Orbit Cloud')
    // and the organisation's own sentences in it still count
    expect(of('Acme Learning hosts its platform with Orbit Cloud')).toBeNull()
  })

  it('finds the names in the text, not in a list: any provider, and none known in advance', () => {
    const made = [
      passage(
        5,
        'Hosting.pdf',
        'Our service is hosted by Qwerty Compute. Qwerty Compute encrypts every disk with AES-256. It keeps backups for 35 days.',
      ),
    ]
    const found = new Map(whoseEach(made, []))
    expect(found.get('Qwerty Compute encrypts every disk with AES-256.')).toBe('Qwerty Compute')
    expect(found.get('It keeps backups for 35 days.')).toBe('Qwerty Compute')
    // with no name of its own known, first-person and impersonal sentences are the organisation's
    expect(found.get('Our service is hosted by Qwerty Compute.')).toBeNull()
  })

  it("takes the organisation's names from the text it speaks as, and from a file named after it", () => {
    const made = [
      passage(6, 'Zephyr_Security_Overview.pdf', 'At Zephyr, we protect every account with MFA.'),
      passage(
        6,
        'Zephyr_Security_Overview.pdf',
        'Zephyr’s engineers review every change before it ships.',
      ),
      passage(7, 'Zephyr_Security_Overview.pdf', 'Zephyr encrypts every backup with AES-256.'),
    ]
    const found = new Map(whoseEach(made, []))
    expect(found.get('Zephyr encrypts every backup with AES-256.')).toBeNull()
    expect(found.get('Zephyr’s engineers review every change before it ships.')).toBeNull()
  })
})

describe("answers from another party's sentences", () => {
  const all = [...NOTES, OVERVIEW]
  const space = spaceOf(all)
  const answer = (text: string, passages = all, vocabulary: string[] | null = YES_NO) =>
    answerFromEvidence({ text, vocabulary }, [], passages, space, [], LIBRARY).candidates[0]

  it('is a lead naming the party, never High, where it alone states the practice', () => {
    const keys = answer('Are encryption keys rotated?', NOTES)
    expect(keys?.choice).toBe('Yes')
    expect(kindOfReason(keys?.reason)).toBe('third_party')
    expect(keys?.reason).toBe(
      'Says what Orbit Cloud does, not what you do: check it holds for you before approving.',
    )
    expect(keys?.confidence).toBeLessThanOrEqual(THIRD_PARTY_CAP)
    const screened = answer('Do you perform background checks on personnel?', NOTES)
    expect(kindOfReason(screened?.reason)).toBe('third_party')
    expect(screened?.confidence).toBeLessThan(0.8)
  })

  it("makes a hosting provider's controls a lead, however they were read before", () => {
    const hosting = [
      passage(
        9,
        'Architecture.pdf',
        'Our platform is hosted by Amazon Web Services (AWS) in two regions. AWS data centers utilize state-of-the-art electronic surveillance and multi-factor access control systems.',
      ),
    ]
    const watched = answerFromEvidence(
      { text: 'Is video surveillance in place at your data centers?', vocabulary: YES_NO },
      [],
      hosting,
      spaceOf(hosting),
      [],
      LIBRARY,
    ).candidates[0]
    expect(watched?.choice).toBe('Yes')
    expect(watched?.reason).toBe(
      'Says what AWS does, not what you do: check it holds for you before approving.',
    )
  })

  it("answers from the organisation's own sentence where one states the practice", () => {
    const rest = answer('Is customer data encrypted at rest?')
    expect(kindOfReason(rest?.reason)).toBe('stated')
    expect(rest?.text).not.toContain('Orbit Cloud')
    const scans = answer('Do you perform vulnerability scans?')
    expect(kindOfReason(scans?.reason)).toBe('stated')
  })

  it("quotes another party's sentence for a question in words as a lead, saying whose it is", () => {
    const keys = answer('Describe how your encryption keys are rotated.', NOTES, null)
    expect(keys?.text).toContain('rotates its encryption keys')
    expect(kindOfReason(keys?.reason)).toBe('third_party')
    expect(keys?.confidence).toBeLessThanOrEqual(THIRD_PARTY_CAP)
  })

  it('says what a law or a customer requires, not what they do', () => {
    const made = [
      passage(
        8,
        'Contract notes.pdf',
        'We keep Northfield University’s student records in our own tenant. Northfield University requires that every vendor encrypt backups with AES-256.',
      ),
    ]
    const backups = practiceAnswer(
      { text: 'Are backups encrypted?', vocabulary: YES_NO },
      made,
      spaceOf(made),
      new PartyBook(made).of(['Acme Learning']),
    )
    expect(backups?.reason).toBe(
      'Says what Northfield University requires, not what you do: check that you do it before approving.',
    )
  })

  it("reads the whole knowledge base's parties when a job's index gives its passages", () => {
    const index = new PassageIndex(all)
    const hits = index.search('encryption keys rotated every year')
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((hit) => hit.parties)).toBe(true)
    // the notes' passage about keys is read as part of a document mostly about Orbit Cloud,
    // though the question's hits hold only some of its passages
    const keys = answerFromEvidence(
      { text: 'Are encryption keys rotated?', vocabulary: YES_NO },
      [],
      hits,
      space,
      [],
      LIBRARY,
    ).candidates[0]
    expect(kindOfReason(keys?.reason)).toBe('third_party')
  })
})
