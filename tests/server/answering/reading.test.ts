import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  doneAsAsked,
  frequencyStated,
  Library,
  type LibraryEntry,
  nearestEvidence,
  nearestQuotes,
  type PassageHit,
  PRACTICES,
  practiceAnswer,
  practicesOf,
  STATED,
  statedIn,
} from '../../../server/answering/engine.ts'
import { sentences, terms } from '../../../server/answering/text.ts'

import { doc, spaceOf, YES_NO } from './passages.ts'

/**
 * How documents are read for practices: what a sentence states (not a list of topics, not what the
 * customers do), what the question asks be done (tested, how often), prose a page wrapped, and the
 * quotes left for the reviewer when no answer can be chosen. Documents made for these tests.
 */

const ask = (text: string, passages: PassageHit[], previous: string | null = null) =>
  practiceAnswer({ text, vocabulary: YES_NO, previous }, passages, spaceOf(passages))

describe('what a sentence states', () => {
  it('does not take a long list of topics for a statement of each', () => {
    const overview =
      'The security team is responsible for strong practices throughout the company via governance, risk management, policy, education, security engineering, security operations, and application security.'
    expect(practicesOf(overview)).toEqual(expect.arrayContaining(['risk-management']))
    expect(statedIn(overview)).not.toContain('risk-management')
    expect(statedIn(overview)).not.toContain('secure-development')
    // a short list of controls is still a statement of each
    expect(
      statedIn('Our controls include multi-factor authentication, encryption at rest and backups.'),
    ).toEqual(expect.arrayContaining(['mfa', 'encryption-at-rest', 'backup']))
    const passage = doc('Overview.pdf', overview)
    expect(ask('Do you have a documented risk management program?', [passage])).toBeNull()
  })

  it("does not take what the customers do for the organisation's practice", () => {
    const theirs = doc(
      'Continuity.pdf',
      'Naturally, best practice also dictates that our customers develop and maintain their own documented disaster recovery plans and procedures.',
    )
    expect(statedIn(theirs.text)).toEqual([])
    expect(ask('Do you have a documented disaster recovery plan?', [theirs])).toBeNull()
    // what the product lets customers do is the organisation's own statement
    expect(statedIn('Customers can export a full backup of their data at any time.')).toContain(
      'backup',
    )
  })

  it("takes what the hosting provider does for the controls it passes on, not for the organisation's own", () => {
    const provider =
      'The AWS infrastructure is designed and managed in accordance with security standards and secure design principles.'
    expect(practicesOf(provider)).toContain('secure-development')
    expect(statedIn(provider)).not.toContain('secure-development')
    // a question about the provider itself reads it
    expect(statedIn(provider, terms(provider), true)).toContain('secure-development')
    // facilities are the provider's, and the organisation's by inheritance
    expect(
      statedIn('AWS data centers utilize state-of-the-art electronic video surveillance.'),
    ).toContain('video-surveillance')
    const soc2 = doc(
      'Overview.pdf',
      'Amazon Web Services holds a current SOC 2 Type II report for every region it runs.',
    )
    expect(ask('Do you have a SOC 2 Type II report?', [soc2])).toBeNull()
    expect(ask('Does your hosting provider have a SOC 2 Type II report?', [soc2])?.choice).toBe(
      'Yes',
    )
  })

  it('reads a word in the sense the practice has', () => {
    // 'logging and fixing defects' records bugs; an API's endpoints are no devices; 'test cases'
    // are no CAS; 'user IDs' are no intrusion detection system
    expect(
      practicesOf('Mechanisms are in place for logging and fixing accessibility defects.'),
    ).not.toContain('audit-logging')
    expect(practicesOf('Audit logs are kept for a year and reviewed weekly.')).toContain(
      'audit-logging',
    )
    expect(practicesOf('All APIs are available via SSL-protected endpoints.')).not.toContain(
      'workstation-security',
    )
    expect(practicesOf('Endpoint protection software runs on all company laptops.')).toContain(
      'workstation-security',
    )
    expect(practicesOf('Every story has manual test cases.')).not.toContain('single-sign-on')
    expect(practicesOf('Users have unique user IDs and session IDs.')).not.toContain(
      'intrusion-detection',
    )
    expect(practicesOf('An IDS watches the network.')).toContain('intrusion-detection')
    // automated tests are a practice of their own: a testing process does not say it is automated
    expect(practicesOf('Is testing automated when possible?')).toEqual(['test-automation'])
    expect(practicesOf('Do you have software testing processes?')).toEqual(['software-testing'])
  })

  it('keeps role-based access and least privilege apart', () => {
    expect(practicesOf('Access is granted on a least privilege basis.')).toEqual([
      'least-privilege',
    ])
    expect(practicesOf('Access controls are based on roles (RBAC).')).toEqual(['role-based-access'])
  })

  it('reads every cue word as the matcher folds real words', () => {
    // a cue word written as a stem ('acces') folds to something no word folds to ('acc')
    const catalogue = JSON.parse(
      readFileSync(new URL('../../../server/answering/nist-800-53.json', import.meta.url), 'utf8'),
    ) as Record<string, string>
    const written = PRACTICES.flatMap((practice) => practice.phrases.join(' ').split(/\s+/))
    const corpus = `${Object.values(catalogue).join(' ')} ${written.join(' ')}`
    const stems = new Set(terms(corpus.toLowerCase()))
    for (const practice of PRACTICES)
      practice.phrases.forEach((phrase, index) => {
        for (const word of practice.cues[index] ?? [])
          expect(
            stems.has(word) || [...stems].some((stem) => word.length >= 4 && stem.startsWith(word)),
            `${practice.id}: '${phrase}' (${word})`,
          ).toBe(true)
      })
    expect(practicesOf('We review user access rights every quarter.')).toContain('access-review')
    expect(practicesOf('Privileged access is limited to the operations team.')).toContain(
      'privileged-access',
    )
    expect(practicesOf('Alerts are raised on detected anomalies.')).toContain('intrusion-detection')
  })
})

describe('what the question asks be done', () => {
  it('takes "every year" for annually, and a number of days for how long, not how often', () => {
    const annually = 'Are the policies reviewed at least annually?'
    expect(frequencyStated(annually, terms('The policies are reviewed every year.'))).toBe(true)
    expect(frequencyStated(annually, terms('The policies are reviewed once a year.'))).toBe(true)
    expect(
      frequencyStated(annually, terms('Screening is done before the first day of work.')),
    ).toBe(false)
    expect(frequencyStated(annually, terms('Logs are kept for 7 years.'))).toBe(false)
    expect(
      frequencyStated('Are backups taken daily?', terms('Backups are deleted after 30 days.')),
    ).toBe(false)
  })

  it('needs a plan exercised or tested when the question asks it, not only reviewed', () => {
    const asked = 'Is the disaster recovery plan exercised annually?'
    expect(doneAsAsked(asked, terms('The disaster recovery plan is reviewed annually.'))).toBe(
      false,
    )
    expect(doneAsAsked(asked, terms('Our tabletop DR tests are conducted annually.'))).toBe(true)
    const reviewed = doc(
      'Continuity.pdf',
      'The incident commander ensures our disaster recovery plan is reviewed at least annually and whenever major components change.',
    )
    expect(ask(asked, [reviewed])).toBeNull()
    const tested = doc(
      'Continuity.pdf',
      'Our tabletop DR tests are conducted annually, and a letter of attestation is available on request.',
    )
    expect(ask(asked, [tested])).toMatchObject({ choice: 'Yes', reason: STATED })
  })

  it('needs the policies reviewed or updated when the question asks it, not only planned', () => {
    const asked =
      'Are risk management policies and procedures reviewed and updated at least annually?'
    expect(
      doneAsAsked(
        asked,
        terms('The security team leads risk analysis and quarterly and yearly planning.'),
      ),
    ).toBe(false)
    expect(
      doneAsAsked(
        asked,
        terms('Risk management policies are reviewed every year by the security team.'),
      ),
    ).toBe(true)
    // a word that names the practice asks nothing more: access reviews are reviews
    expect(
      doneAsAsked(
        'Are access rights reviewed quarterly?',
        terms('User access reviews are performed quarterly.'),
      ),
    ).toBe(true)
  })
})

describe('form fields', () => {
  it("answers a form field only from the organisation's record of it, never from a passage that shares its word", () => {
    const passage = doc(
      'Security.pdf',
      'Keeping systems up to date: we remove end-of-life operating systems and apply security patches within a week.',
    )
    const space = spaceOf([passage])
    for (const field of ['Product Name', 'Vendor Hosting Regions'])
      expect(
        answerFromEvidence({ text: field, vocabulary: null }, [], [passage], space).candidates,
      ).toEqual([])
    // (a date field is the day the questionnaire is answered: submission fields are in submission.test.ts)
    const asOf = new Date('2025-03-14T12:00:00Z')
    expect(
      answerFromEvidence({ text: 'Date', vocabulary: null, asOf }, [], [passage], space)
        .candidates[0]?.text,
    ).toBe('2025-03-14')
    // a question, or an instruction, of as few words is answered from the passage
    const officer = doc(
      'Privacy.pdf',
      'Our data protection officer is Jane Smith, reachable at dpo@example.com.',
    )
    const asked = answerFromEvidence(
      { text: 'Who is your data protection officer?', vocabulary: null },
      [],
      [officer],
      spaceOf([officer]),
    )
    expect(asked.candidates[0]?.text).toContain('Jane Smith')
  })
})

describe('prose a page wrapped', () => {
  it('rejoins a long line that does not end a sentence, but not a heading or a list item', () => {
    expect(
      sentences(
        'Business Continuity\nTo strengthen our continuity plan, our enterprise risk steering\ncommittee meets quarterly to review it.\n• A bullet item that is long enough to count\n• Another bullet item that is long enough',
      ),
    ).toEqual([
      'To strengthen our continuity plan, our enterprise risk steering committee meets quarterly to review it.',
      '• A bullet item that is long enough to count',
      '• Another bullet item that is long enough',
    ])
  })
})

describe('the nearest evidence of an abstention', () => {
  const exercise = doc(
    'Continuity.pdf',
    'Disaster recovery. We conduct annual table-top exercises of the disaster recovery plan that simulate emergency situations with the operations and support teams.',
    7,
  )

  it('abstains, says what it looked for and cites what speaks of the practice', () => {
    const question = {
      text: 'Are local emergency authorities included, if possible, in the disaster recovery exercise?',
      vocabulary: YES_NO,
    }
    const space = spaceOf([exercise])
    // no sentence says the authorities take part: no Yes, no No
    expect(practiceAnswer(question, [exercise], space)).toBeNull()
    const result = answerFromEvidence(question, [], [exercise], space)
    expect(result.candidates).toHaveLength(1)
    const [lead] = result.candidates
    // not an answer: nothing chosen, nothing written, no confidence
    expect(lead).toMatchObject({ text: '', choice: null, confidence: 0 })
    // said as a person would, in the question's own words, then the closest sentence, whole
    expect(lead?.withheld).toBe(
      'No document or library answer says that disaster recovery is in place as asked (local emergency authorities included). Closest: “We conduct annual table-top exercises of the disaster recovery plan that simulate emergency situations with the operations and support teams.”',
    )
    expect(lead?.citations[0]).toMatchObject({ title: 'Continuity.pdf', location: { page: 7 } })
    expect(lead?.citations[0]?.snippet).toContain('annual table-top exercises')
  })

  it("cites the organisation's own answer about the practice from the library", () => {
    const entry: LibraryEntry = {
      source: 'file',
      id: 1,
      fileId: 9,
      title: 'HECVAT.xlsx',
      question: 'Do you have a formal incident response plan?',
      answer: 'Yes',
      detail: '',
      dropdown: null,
      location: { sheet: 'Full', row: 40 },
    }
    const library = new Library([entry])
    const nearest = nearestEvidence(
      {
        text: 'Is a security incident response plan that includes impacted customers and suppliers established?',
        vocabulary: YES_NO,
      },
      [],
      library.space,
      library,
    )
    expect(nearest?.[0]).toMatchObject({ kind: 'library', title: 'HECVAT.xlsx' })
    // the abstention quotes it as the organisation's answer
    expect(
      nearestQuotes(
        {
          text: 'Is a security incident response plan that includes impacted customers and suppliers established?',
          vocabulary: YES_NO,
        },
        [],
        library.space,
        library,
      )?.closest,
    ).toBe('your answer to “Do you have a formal incident response plan?”: Yes')
  })

  it('cites nothing when a practice asked is not spoken of, or for a question that is not Yes/No', () => {
    const space = spaceOf([exercise])
    expect(
      nearestEvidence(
        { text: 'Are backups encrypted and tested for restoration?', vocabulary: YES_NO },
        [exercise],
        space,
        null,
      ),
    ).toBeNull()
    expect(
      nearestEvidence(
        { text: 'Describe your disaster recovery exercises.', vocabulary: null },
        [exercise],
        space,
        null,
      ),
    ).toBeNull()
    // and a sentence that does not say the plan is reviewed, when that is asked, is no lead
    expect(
      nearestEvidence(
        {
          text: 'Is the disaster recovery plan reviewed and updated at least annually?',
          vocabulary: YES_NO,
        },
        [exercise],
        space,
        null,
      ),
    ).toBeNull()
  })
})
