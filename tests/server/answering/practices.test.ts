import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  mentions,
  NO_EVIDENCE,
  type PassageHit,
  PRACTICE_DENIED,
  PRACTICES,
  practiceAnswer,
  practiceQuery,
  practicesOf,
  STATED,
} from '../../../server/answering/engine.ts'
import { terms } from '../../../server/answering/text.ts'

import { doc, spaceOf, YES_NO } from './passages.ts'

/**
 * The practice vocabulary and answers from documents by practice, on documents made for these
 * tests: ones that state a practice, deny it, state it for another scope, or half-state it.
 */

const ask = (text: string, passages: PassageHit[], vocabulary: string[] | null = YES_NO) =>
  practiceAnswer({ text, vocabulary }, passages, spaceOf(passages))

describe('practice vocabulary', () => {
  it('maps different wordings of one practice onto it', () => {
    for (const text of [
      'Is data encrypted at rest?',
      'All customer records are stored on AES-256 encrypted volumes.',
      'Is sensitive data encrypted in storage?',
      'Protection of information at rest is provided by the database layer.',
    ])
      expect(practicesOf(text), text).toContain('encryption-at-rest')
    for (const text of [
      'Do you perform penetration tests?',
      'An independent firm pen-tests the application every year.',
    ])
      expect(practicesOf(text), text).toContain('penetration-testing')
    expect(practicesOf('Do you require multi-factor authentication for administrators?')).toEqual([
      'mfa',
    ])
  })

  it('keeps practices that share a word apart', () => {
    expect(practicesOf('Are you using a web application firewall (WAF)?')).toEqual([
      'web-application-firewall',
    ])
    expect(practicesOf('Do you operate network firewalls at the perimeter?')).toEqual(['firewall'])
    // a practice named inside another's words is the more specific one
    expect(practicesOf('Do you retain an external incident response team?')).toEqual([
      'incident-team',
    ])
  })

  it('needs the words of a cue near each other', () => {
    const near = mentions(terms('Backups are encrypted and stored offsite.'))
    expect(near.map((m) => m.practice)).toContain('backup')
    const far = practicesOf(
      'We encrypt the connection. The building has many floors, meeting rooms, a cafeteria, a large parking area and guest rooms, where paper files are stored.',
    )
    expect(far).not.toContain('encryption-at-rest')
  })

  it('tells who assesses whom, and what is done from what is only named', () => {
    expect(
      practicesOf('Have your systems had a third-party security assessment completed?'),
    ).toEqual(['independent-assessment'])
    expect(practicesOf('Do you perform security assessments of third-party companies?')).toContain(
      'third-party-management',
    )
    // words of a cue far apart in a list are not the practice
    expect(
      practicesOf(
        'The plan covers detecting, assessing, escalating and learning from security incidents.',
      ),
    ).not.toContain('independent-assessment')
    expect(
      practicesOf(
        'Backups include operating system software, security software, application software and data.',
      ),
    ).toEqual(['backup'])
  })

  it('names public-domain NIST SP 800-53 controls, each in the shipped catalogue', () => {
    const catalogue = JSON.parse(
      readFileSync(new URL('../../../server/answering/nist-800-53.json', import.meta.url), 'utf8'),
    ) as Record<string, string>
    for (const practice of PRACTICES) {
      expect(practice.controls.length, practice.id).toBeGreaterThan(0)
      for (const control of practice.controls)
        expect(catalogue[control.toLowerCase()], `${practice.id}: ${control}`).toBeTruthy()
    }
  })

  it('turns a question into words that find passages about its practices', () => {
    expect(
      practiceQuery(practicesOf('Do you have a documented change management process?')),
    ).toContain('change management')
    expect(practiceQuery(practicesOf('What is your company called?'))).toBe('')
  })
})

describe('answers from documents by practice', () => {
  const statesRest = doc(
    'Security Overview.pdf',
    'Data protection\nAll customer data is stored on AES-256 encrypted volumes, and database snapshots are encrypted with keys held in a managed key service.',
    4,
  )

  it('answers Yes from a sentence that states the practice, quoted with its document and page', () => {
    const result = ask('Is sensitive data encrypted at rest (e.g., disk encryption)?', [statesRest])
    expect(result?.choice).toBe('Yes')
    expect(result?.reason).toBe(STATED)
    expect(result?.text).toContain('AES-256 encrypted volumes')
    expect(result?.citations[0]).toMatchObject({
      title: 'Security Overview.pdf',
      location: { page: 4 },
    })
    expect(result?.citations[0]?.snippet).toContain('AES-256')
  })

  it('answers No from a sentence that denies the practice', () => {
    const denies = doc(
      'Continuity Plan.pdf',
      'Customer exports. Instead of providing full or partial backups to customers, we let customers export their own data from the reports page at any time.',
    )
    const result = ask('Can the institution receive a full or partial backup of its data?', [
      denies,
    ])
    expect(result?.choice).toBe('No')
    expect(result?.reason).toBe(PRACTICE_DENIED)
    expect(result?.citations[0]?.snippet).toContain('Instead of providing full or partial backups')
  })

  it('abstains when the practice is stated for another scope', () => {
    // the question asks how often; the document states the practice but says nothing of annual tests
    const otherScope = doc(
      'Continuity Plan.pdf',
      'Instructions for staff. The business continuity plan names the people who lead each function during an outage and how they reach one another.',
    )
    expect(
      ask('Do you have a documented business continuity plan that is tested annually?', [
        otherScope,
      ]),
    ).toBeNull()
    const annual = doc(
      'Continuity Plan.pdf',
      'Testing. The business continuity plan is documented and tested annually through a tabletop exercise with every department.',
    )
    expect(
      ask('Do you have a documented business continuity plan that is tested annually?', [annual])
        ?.choice,
    ).toBe('Yes')
  })

  it('abstains when a document half-states a question that names two practices', () => {
    const halfStated = doc(
      'Facilities.pdf',
      'Physical security. Entry to the data center requires a badge and a PIN at every door, and visitors are escorted.',
    )
    const question =
      'Do you have physical access control and video surveillance to prevent unauthorized entry?'
    expect(ask(question, [halfStated])).toBeNull()
    const both = doc(
      'Facilities.pdf',
      'Physical access to the building requires a badge at every door. CCTV cameras record every entrance and the recordings are kept for 90 days to detect unauthorized entry.',
    )
    expect(ask(question, [both])?.choice).toBe('Yes')
  })

  it('does not take a heading, a bullet fragment or a restated question as a statement', () => {
    const fragments = doc(
      'Questionnaire notes.pdf',
      'Penetration testing\n• Yearly penetration tests\nDo you perform annual penetration tests?',
    )
    expect(ask('Do you perform annual penetration tests?', [fragments])).toBeNull()
  })

  it('takes examples for illustrations, not for scope, and a pointer elsewhere for no statement', () => {
    const logs = doc(
      'Operations.pdf',
      'Audit logs of every administrative action are kept for a year in a central store that staff cannot alter.',
    )
    expect(
      ask(
        'Are audit logs kept that include all of the following: login, logout, timestamp and source IP address?',
        [logs],
      )?.choice,
    ).toBe('Yes')
    expect(
      ask('Are audit logs kept (e.g., login, logout and source IP address)?', [logs])?.choice,
    ).toBe('Yes')
    const pointer = doc(
      'Overview.pdf',
      'For more detail on our incident response plan and its tests, please see the Business Continuity Plan.',
    )
    expect(ask('Do you have a formal incident response plan?', [pointer])).toBeNull()
  })

  it('takes a more frequent practice for a less frequent one asked, never the reverse', () => {
    const quarterly = doc(
      'Security Overview.pdf',
      'Assessments. Independent penetration tests of the platform are performed quarterly by an outside firm.',
    )
    expect(ask('Do you perform penetration tests at least annually?', [quarterly])?.choice).toBe(
      'Yes',
    )
    expect(
      ask('Are penetration tests performed periodically, at planned intervals?', [quarterly])
        ?.choice,
    ).toBe('Yes')
    const annual = doc(
      'Security Overview.pdf',
      'Assessments. Independent penetration tests of the platform are performed annually by an outside firm.',
    )
    expect(ask('Do you perform penetration tests monthly?', [annual])).toBeNull()
  })

  it('reads an abbreviation in a document for the words it stands for', () => {
    // 'SDLC' in the document holds the question's 'lifecycle'
    const sdlc = doc(
      'Engineering.pdf',
      'Engineering. Our SDLC requires threat modelling and a security design review for every feature.',
    )
    expect(ask('Is security designed into the development lifecycle?', [sdlc])?.choice).toBe('Yes')
  })

  it('reads a question that refers back through the question before it', () => {
    const reviewed = doc(
      'Policies.pdf',
      'Governance. The incident response plan is reviewed and updated annually by the security team and approved by the CISO.',
    )
    const followUp = 'Are the policies and procedures reviewed and updated at least annually?'
    expect(ask(followUp, [reviewed])).toBeNull()
    const previous =
      'Are incident response policies and procedures established, documented, approved, communicated and maintained?'
    expect(
      practiceAnswer(
        { text: followUp, vocabulary: YES_NO, previous },
        [reviewed],
        spaceOf([reviewed]),
      )?.choice,
    ).toBe('Yes')
  })

  it('does not take an idiom with a negation word for a denial', () => {
    const listed = doc(
      'Continuity Plan.pdf',
      'Resilience. The plan covers every disruption, including but not limited to cyber-attacks, physical security breaches, pandemics and natural disasters, and physical security controls guard each office.',
    )
    expect(
      ask('Does your organization have physical security controls and policies in place?', [listed])
        ?.choice,
    ).toBe('Yes')
    const denied = doc(
      'Facilities.pdf',
      'Offices. We do not operate physical security controls of our own; the landlord guards the building.',
    )
    expect(
      ask('Does your organization have physical security controls and policies in place?', [denied])
        ?.choice,
    ).toBe('No')
  })

  it('says what it looked for when nothing states the practice', () => {
    const result = answerFromEvidence(
      { text: 'Do you perform external penetration tests at least annually?', vocabulary: YES_NO },
      [],
      [statesRest],
      spaceOf([statesRest]),
    )
    expect(result.candidates).toEqual([])
    expect(result.note).toBe(
      'No document or library answer says that penetration testing is in place as asked (external, annually).',
    )
    // a question about no practice of the vocabulary says there is no evidence
    expect(
      answerFromEvidence(
        { text: 'Do you have an office in Paris?', vocabulary: YES_NO },
        [],
        [statesRest],
        spaceOf([statesRest]),
      ).note,
    ).toBe(NO_EVIDENCE)
  })

  it('leaves a negation a clause away alone', () => {
    const statement = doc(
      'Operations.pdf',
      'Our security operations staff respond to incidents 24 hours a day, 7 days a week, without waiting for business hours.',
    )
    expect(
      ask('Do you have the capability to respond to incidents on a 24 x 7 basis?', [statement])
        ?.choice,
    ).toBe('Yes')
  })

  it('answers nothing for a question that names no practice, or is not a Yes/No question', () => {
    expect(ask('Do you have an office in Paris?', [statesRest])).toBeNull()
    expect(ask('Describe how data is encrypted at rest.', [statesRest])).toBeNull()
    expect(ask('Is data encrypted at rest?', [statesRest], null)).toBeNull()
  })

  it('gives its answer first through the engine, and no answer without a statement', () => {
    const space = spaceOf([statesRest])
    const stated = answerFromEvidence(
      { text: 'Is data encrypted at rest?', vocabulary: YES_NO },
      [],
      [statesRest],
      space,
    )
    expect(stated.candidates[0]?.choice).toBe('Yes')
    expect(stated.candidates[0]?.reason).toBe(STATED)
    const none = answerFromEvidence(
      { text: 'Do you perform penetration tests?', vocabulary: YES_NO },
      [],
      [statesRest],
      space,
    )
    expect(none.candidates.every((candidate) => candidate.choice === null)).toBe(true)
  })
})
