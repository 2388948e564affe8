import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  CORROBORATED,
  Library,
  type PassageHit,
  PRACTICE_DENIED,
  STATED,
  setCalibration,
  trigramCosine,
  trigrams,
} from '../../../server/answering/engine.ts'
import { TfIdf, terms } from '../../../server/answering/text.ts'
import { fileEntry, qaItem } from '../../fixtures/library.ts'

/**
 * The library engine on its own: no database, entries as ingestion would load them; its raw
 * scores (calibration, which maps them onto measured accuracy, is tested in calibration.test.ts).
 */
let shipped: ReturnType<typeof setCalibration> = null
beforeAll(() => {
  shipped = setCalibration(null)
})
afterAll(() => {
  setCalibration(shipped)
})

const YES_NO = ['Yes', 'No', 'N/A']
const answer = (library: Library, text: string, vocabulary: string[] | null = YES_NO) =>
  answerFromEvidence({ text, vocabulary }, library.match(text), [], new TfIdf())

const SSO = 'Does your product support single sign-on for institutional users?'

describe('library engine: records that answer the same question', () => {
  it('gives the commonest answer when most records agree, with a confidence that says how far', () => {
    const library = new Library([
      fileEntry(1, SSO, 'Yes'),
      fileEntry(2, SSO, 'Yes'),
      fileEntry(3, SSO, 'Yes'),
      fileEntry(4, SSO, 'No'),
    ])
    const result = answer(library, SSO)
    const [first, second] = result.candidates
    expect(first?.choice).toBe('Yes')
    expect(first?.withheld).toBeUndefined()
    // three of four agree: below the confidence of a unanimous answer
    expect(first?.confidence).toBeLessThan(0.8)
    expect(first?.confidence).toBeGreaterThan(0.5)
    // the dissenting record is offered as a candidate, with a lower confidence
    expect(second?.choice).toBe('No')
    expect(second?.confidence).toBeLessThan(first?.confidence ?? 0)
  })

  it('gives a unanimous answer at high confidence, counting each source once', () => {
    const library = new Library([
      fileEntry(1, SSO, 'Yes'),
      fileEntry(2, SSO, 'Yes'),
      // the same file repeating its own row is one record, not a second vote
      fileEntry(3, SSO, 'No'),
      fileEntry(3, SSO, 'No'),
      fileEntry(4, SSO, 'Yes'),
      fileEntry(5, SSO, 'Yes'),
    ])
    const result = answer(library, SSO)
    expect(result.candidates[0]?.choice).toBe('Yes')
    expect(result.candidates[0]?.withheld).toBeUndefined()
    const unanimous = answer(new Library([fileEntry(1, SSO, 'Yes'), fileEntry(2, SSO, 'Yes')]), SSO)
    expect(unanimous.candidates[0]?.confidence).toBeGreaterThan(0.9)
  })

  it('declines to choose when the records are split, and offers each side as a candidate', () => {
    const library = new Library([
      fileEntry(1, SSO, 'Yes'),
      fileEntry(2, SSO, 'No', 'Only local accounts.'),
      fileEntry(3, SSO, 'Yes'),
      fileEntry(4, SSO, 'No'),
      fileEntry(5, SSO, 'Yes'),
    ])
    const result = answer(library, SSO)
    const [first, ...rest] = result.candidates
    expect(first?.withheld).toBe(
      'Your records disagree: of 5 that answer this question, 3 answer Yes, 2 answer No. Choose the candidate that is true for this questionnaire, or write the answer.',
    )
    expect(first?.choice).toBeNull()
    expect(first?.text).toBe('')
    // the sources on both sides are cited
    expect(first?.citations.length).toBe(5)
    expect(rest.map((candidate) => candidate.choice)).toEqual(['Yes', 'No'])
    expect(rest[1]?.text).toBe('Only local accounts.')
  })

  it('a two-way tie is split too', () => {
    const library = new Library([fileEntry(1, SSO, 'Yes'), fileEntry(2, SSO, 'No')])
    expect(answer(library, SSO).candidates[0]?.withheld).toMatch(/1 answer Yes, 1 answer No/)
  })
})

describe('library engine: related questions', () => {
  it("never turns a related question's Yes into a Yes, but keeps its No", () => {
    const related =
      'Are audit logs available for all changes to the network, firewall, IDS, and IPS systems?'
    const asked = 'Do you use an automated IDS/IPS system to monitor for intrusions?'
    const others = [
      fileEntry(2, 'Do you encrypt institutional data at rest?', 'Yes'),
      fileEntry(3, 'Do you have a formal incident response plan?', 'Yes'),
      fileEntry(4, 'Do you run annual penetration tests?', 'Yes'),
      fileEntry(5, 'Do you review access rights every quarter?', 'Yes'),
    ]
    const library = new Library([fileEntry(1, related, 'Yes'), ...others])
    const [match] = library.match(asked)
    // a related question, not the same one
    expect(match?.entry.question).toBe(related)
    expect(match?.score).toBeGreaterThanOrEqual(0.4)
    expect(match?.score).toBeLessThan(0.5)
    const yes = answer(library, asked)
    expect(yes.candidates.some((candidate) => candidate.choice === 'Yes')).toBe(false)
    const no = answer(new Library([fileEntry(1, related, 'No'), ...others]), asked)
    expect(no.candidates[0]?.choice).toBe('No')
    expect(no.candidates[0]?.confidence).toBeLessThan(0.5)
    // without a dropdown, the Yes is not written into the text either
    const free = answer(
      new Library([fileEntry(1, related, 'Yes', 'Kept for a year.'), ...others]),
      asked,
      null,
    )
    expect(free.candidates[0]?.text).toBe('Kept for a year.')
  })

  it('reads a word the library does not know as the known word it misspells (trigrams)', () => {
    const stored =
      'Are you generally able to accommodate storing each institution’s data within their geographic region?'
    const asked =
      "Are you generally able to accomodate storing each institution's data within their geographic region?"
    const library = new Library([fileEntry(1, stored, 'Yes')])
    expect(trigramCosine(trigrams('accomodate'), trigrams('accommodate'))).toBeGreaterThan(0.7)
    const [match] = library.match(asked)
    expect(match?.score).toBeGreaterThan(0.95)
    expect(answer(library, asked).candidates[0]).toMatchObject({ choice: 'Yes' })
    expect(answer(library, asked).candidates[0]?.confidence).toBeGreaterThan(0.9)
  })

  it('a known word is never corrected into another one', () => {
    const library = new Library([
      fileEntry(1, 'Do you encrypt backups stored offsite?', 'Yes'),
      fileEntry(2, 'Do you review firewall rules?', 'Yes'),
    ])
    // 'restore' is not a misspelling of 'stored'
    expect(library.match('Do you test restores of backups?')[0]?.score ?? 0).toBeLessThan(0.5)
  })
})

describe('library engine: document passages', () => {
  // the passage names the practice but not all the question asks of it (Type II, each region): a
  // quote, not a Yes of its own (every region)
  const asked =
    'Does the hosting provider have a SOC 2 Type II report available for each data center region?'
  const passage: PassageHit = {
    id: 9,
    fileId: 9,
    source: 'file',
    title: 'Security overview.pdf',
    text: 'Our hosting provider has a SOC 2 audit report, and it is available to customers under NDA on request.',
    location: { page: 4 },
    rank: 1,
  }
  const others = [
    fileEntry(2, 'Do you encrypt institutional data at rest?', 'Yes'),
    fileEntry(3, 'Do you have a formal incident response plan?', 'Yes'),
    fileEntry(4, 'Do you run annual penetration tests?', 'Yes'),
  ]
  const run = (library: Library) => {
    const space = new TfIdf()
    for (const entry of library.entries) space.add(terms(entry.question))
    space.add(terms(passage.text))
    return answerFromEvidence(
      { text: asked, vocabulary: YES_NO },
      library.match(asked),
      [passage],
      space,
    )
  }

  it("quotes a passage; a related Yes of the organisation's own corroborates it into a medium Yes", () => {
    // alone, the passage is a lead for the reviewer, not an answer: a Yes/No question is answered
    // Yes from a passage or not at all (issue 27: no answer composed of the question's words)
    const alone = run(new Library(others))
    expect(alone.candidates.filter((candidate) => candidate.choice)).toEqual([])
    const related = fileEntry(
      1,
      'Have you undergone a SOC 2 audit of your hosting provider?',
      'Yes',
    )
    const library = new Library([related, ...others])
    const score = library.match(asked).find((match) => match.entry === related)?.score ?? 0
    expect(score).toBeGreaterThanOrEqual(0.25)
    expect(score).toBeLessThan(0.5)
    const corroborated = run(library)
    expect(corroborated.candidates[0]?.choice).toBe('Yes')
    // the reviewer is told what the Yes rests on
    expect(corroborated.candidates[0]?.reason).toBe(CORROBORATED)
    expect(alone.candidates[0]?.reason).toBeUndefined()
    expect(corroborated.candidates[0]?.confidence).toBeLessThan(0.8)
    expect(corroborated.candidates[0]?.confidence).toBeGreaterThanOrEqual(0.5)
    // both the passage and the related answer are cited
    expect(corroborated.candidates[0]?.citations.map((citation) => citation.title)).toEqual([
      'Security overview.pdf',
      related.title,
    ])
    // a related No among the organisation's answers: no Yes
    const contested = run(
      new Library([
        related,
        fileEntry(
          5,
          'Does your hosting provider publish a SOC 2 bridge letter for each region?',
          'No',
        ),
        ...others,
      ]),
    )
    expect(contested.candidates.some((candidate) => candidate.choice === 'Yes')).toBe(false)
  })
})

describe('library engine: answers about the same practice', () => {
  const asked =
    'Do you have an incident response process and reporting in place to investigate any potential incidents and report actual incidents?'
  const passage: PassageHit = {
    id: 30,
    fileId: 12,
    source: 'file',
    title: 'Security overview.pdf',
    text: [
      'Incident Response Team',
      'To keep the investigation sound, the team will not share details with anyone outside the incident response team.',
      'The security team investigates every incident within a day of its discovery.',
    ].join('\n'),
    location: { page: 9 },
    rank: 1,
  }
  const run = (library: Library) => {
    const space = new TfIdf()
    for (const entry of library.entries) space.add(terms(entry.question))
    return answerFromEvidence(
      { text: asked, vocabulary: YES_NO },
      library.match(asked),
      [passage],
      space,
      library.about(asked),
    )
  }
  const plan = fileEntry(1, 'Do you have a formal incident response plan?', 'Yes')
  const team = fileEntry(
    1,
    'Do you either have an internal incident response team or retain one?',
    'Yes',
  )
  const unrelated = [
    fileEntry(2, 'Do you encrypt institutional data at rest?', 'Yes'),
    fileEntry(3, 'Do you run annual penetration tests?', 'No'),
  ]

  it('finds what the organisation answered about a practice the question names, not about anything else', () => {
    const library = new Library([plan, team, ...unrelated])
    expect(library.about(asked).map((match) => match.entry)).toEqual(
      expect.arrayContaining([plan, team]),
    )
    expect(library.about(asked)).toHaveLength(2)
    // words that name no practice (require, administrator, data center) relate nothing
    expect(
      new Library(unrelated).about('Do you require administrators to use a data center badge?'),
    ).toEqual([])
  })

  it('a passage that states the practice in other words makes a Yes, quoting it; a No about it makes none', () => {
    const result = run(new Library([plan, team, ...unrelated]))
    const first = result.candidates[0]
    expect(first?.choice).toBe('Yes')
    expect(first?.reason).toBe(STATED)
    // the sentence that states the practice is quoted, not one that says what is not done
    expect(first?.text.startsWith('The security team investigates every incident')).toBe(true)
    expect(first?.citations.map((citation) => citation.snippet)).toEqual([
      expect.stringContaining('investigates every incident'),
    ])
    const contested = run(
      new Library([
        plan,
        fileEntry(4, 'Do you notify customers of security incidents within 24 hours?', 'No'),
        ...unrelated,
      ]),
    )
    // the organisation's own No stands: the passage is cited as a lead, no Yes is drawn from it
    expect(contested.candidates.some((candidate) => candidate.choice === 'Yes')).toBe(false)
    expect(
      contested.candidates.flatMap((candidate) => candidate.citations.map((c) => c.snippet)),
    ).toEqual(expect.arrayContaining([expect.stringContaining('investigates every incident')]))
  })

  const passageHit = (text: string): PassageHit => ({
    id: 41,
    fileId: 14,
    source: 'file',
    title: 'Hosting.pdf',
    text,
    location: { page: 2 },
    rank: 1,
  })
  const evidenceAnswer = (library: Library, question: string, text: string) => {
    const space = new TfIdf()
    for (const entry of library.entries) space.add(terms(entry.question))
    return answerFromEvidence(
      { text: question, vocabulary: YES_NO },
      library.match(question),
      [passageHit(text)],
      space,
      library.about(question),
    )
  }

  it('weighs what a question asks done above the purpose it names (to prevent, to detect, ...)', () => {
    const library = new Library([
      fileEntry(1, 'Does your organization have physical security controls and policies?', 'Yes'),
      fileEntry(2, 'Do you run annual penetration tests?', 'Yes'),
      fileEntry(3, 'Do you encrypt institutional data at rest?', 'Yes'),
    ])
    const asked =
      'Do you have physical access control and video surveillance at your data centers to prevent unauthorized entry?'
    const quoted =
      'Our data centers use electronic surveillance and physical access control systems, staffed around the clock.'
    const result = evidenceAnswer(library, asked, quoted)
    expect(result.candidates[0]?.choice).toBe('Yes')
    expect(result.candidates[0]?.citations).toHaveLength(2)
    // the same passage asked about the purpose alone covers too little of it
    const purposeOnly = evidenceAnswer(
      library,
      'Do you prevent unauthorized entry to your data centers?',
      quoted,
    )
    expect(purposeOnly.candidates.some((candidate) => candidate.choice === 'Yes')).toBe(false)
  })

  it('a sentence left out of the quote that denies the practice rules out a Yes', () => {
    const library = new Library([fileEntry(1, 'Do you run annual penetration tests?', 'Yes')])
    const asked = 'Do you encrypt backups of customer data?'
    const stated = [
      'Backups of customer data are taken every night.',
      'Backups of customer data are kept for 35 days.',
    ]
    const yes = evidenceAnswer(library, asked, [...stated, 'Customer data is encrypted.'].join(' '))
    expect(yes.candidates[0]?.choice).toBe('Yes')
    const denied = evidenceAnswer(
      library,
      asked,
      [...stated, 'Customer data is encrypted, but we do not encrypt backups.'].join(' '),
    )
    // the sentence that denies it answers No, quoted
    expect(denied.candidates[0]?.choice).toBe('No')
    expect(denied.candidates[0]?.reason).toBe(PRACTICE_DENIED)
    expect(denied.candidates[0]?.text).toBe(
      'Customer data is encrypted, but we do not encrypt backups.',
    )
    // a negation a clause away from what is asked denies nothing
    const unrelated = evidenceAnswer(
      library,
      asked,
      [
        ...stated,
        'Customer data is encrypted.',
        'Staff will not discuss the schedule of these routines with outsiders.',
      ].join(' '),
    )
    expect(unrelated.candidates[0]?.choice).toBe('Yes')
  })

  it('a passage that never mentions the practice a question names is no evidence for it', () => {
    const library = new Library([fileEntry(1, 'Do you encrypt customer data at rest?', 'Yes')])
    const quoted =
      'We keep encrypted backups of every data item in a second region, and restore one in a test each quarter.'
    // shares 'data', 'item' and 'quarter' with the question, but says nothing of access reviews
    const offTopic = evidenceAnswer(
      library,
      'Do you review access rights every quarter (data item 5)?',
      quoted,
    )
    expect(offTopic.candidates).toEqual([])
    // and says what it looked for
    expect(offTopic.note).toBe(
      'No document or library answer says that access review is in place as asked (quarter, item).',
    )
    const onTopic = evidenceAnswer(
      library,
      'Do you keep backups in a second region (data item 4)?',
      quoted,
    )
    expect(onTopic.candidates[0]?.text).toContain('encrypted backups')
    expect(onTopic.candidates[0]?.reason).toBe(STATED)
  })

  it("a passage that offers something instead of the practice supports no Yes ('instead of', 'rather than')", () => {
    const library = new Library([fileEntry(1, 'Do you back up customer data daily?', 'Yes')])
    const asked = 'Can the institution extract a full or partial backup of its data?'
    const result = evidenceAnswer(
      library,
      asked,
      'Instead of providing full or partial backups, institutions can extract their data as CSV exports.',
    )
    expect(result.candidates[0]?.text).toContain('Instead of providing full or partial backups')
    // what is offered instead is not the practice: the sentence answers No
    expect(result.candidates[0]?.choice).toBe('No')
    expect(result.candidates[0]?.reason).toBe(PRACTICE_DENIED)
  })

  it('folds a synonym written as one word, hyphenated or in the plural, longest form first', () => {
    const mfa = terms('Do you use multi-factor authentication?')
    expect(terms('Do you use multifactor authentication?')).toEqual(mfa)
    expect(terms('Do you use MFA?')).toEqual(mfa)
    expect(terms('Are back-ups tested?')).toEqual(terms('Are backups tested?'))
    expect(terms('Do you notify customers of security incidents?')).toContain('incidentrespons')
    // 'intrusion detection system' is one idea, not 'intrusion detection' plus 'system'
    expect(terms('Is an intrusion detection system deployed?')).toEqual(['ids', 'deploy'])
    // a plural ends a phrase: 'data backups policy' is a backup and a policy
    expect(terms('data backups policy')).toEqual(['backup', 'policy'])
    // a word that only starts like a form is left alone
    expect(terms('Do you keep a backupserver?')).toEqual(['keep', 'backupserver'])
  })

  it("reads 'in place', 'potential' and plan/process/procedure as questionnaires mean them", () => {
    expect(terms('Do you have an incident response process in place?')).toEqual(
      terms('Do you have an incident response plan?'),
    )
    expect(terms('Do you report potential and actual incidents?')).toEqual(
      terms('Do you report incidents?'),
    )
  })
})

describe('library engine: answer text', () => {
  it('quotes what an approved answer to another question says, citing that answer', () => {
    const library = new Library([
      fileEntry(
        1,
        'Describe how you protect data stored by the service.',
        'All customer records are encrypted with AES-256 keys held in a managed key service and rotated yearly.',
      ),
      fileEntry(2, 'Do you run annual penetration tests?', 'Yes'),
      fileEntry(3, 'Do you review access rights every quarter?', 'Yes'),
    ])
    const asked = 'Which algorithm encrypts customer records, and where are the keys held?'
    const hits = library.narratives().search(asked)
    expect(hits[0]?.text).toContain('AES-256')
    // a bare Yes says nothing on its own and is not a narrative
    expect(library.narratives().size).toBe(1)
    const space = new TfIdf()
    for (const entry of library.entries) space.add(terms(entry.question))
    const result = answerFromEvidence({ text: asked, vocabulary: null }, [], hits, space)
    expect(result.candidates[0]?.text).toContain('encrypted with AES-256')
    expect(result.candidates[0]?.citations[0]).toMatchObject({
      source: 'file',
      id: 1,
      title: 'Completed questionnaire 1.xlsx',
    })
  })
})

describe('library engine: approved answers and questionnaire history', () => {
  it('an approved library answer decides over completed questionnaires that disagree with it', () => {
    const files = [fileEntry(1, SSO, 'No'), fileEntry(2, SSO, 'No'), fileEntry(3, SSO, 'Yes')]
    expect(answer(new Library(files), SSO).candidates[0]?.choice).toBe('No')
    const settled = answer(new Library([...files, qaItem(SSO, 'Yes')]), SSO)
    expect(settled.candidates[0]?.choice).toBe('Yes')
    expect(settled.candidates[0]?.withheld).toBeUndefined()
    expect(settled.candidates[0]?.citations[0]?.source).toBe('qa')
    expect(settled.candidates[0]?.confidence).toBeGreaterThan(0.9)
    // the questionnaires' other answer is still offered, at the confidence its share earns
    const other = settled.candidates.find((candidate) => candidate.choice === 'No')
    expect(other?.confidence).toBeLessThan(0.65)
  })

  it('library answers that disagree with each other are a split like any other', () => {
    const result = answer(
      new Library([qaItem(SSO, 'Yes'), qaItem(SSO, 'No'), fileEntry(1, SSO, 'Yes')]),
      SSO,
    )
    expect(result.candidates[0]?.withheld).toMatch(/of 2 that answer this question/)
  })
})
