import { describe, expect, it } from 'vitest'
import { CONFIDENCE_BANDS } from '../../../contract/questionnaires.ts'
import {
  answerFromEvidence,
  assuranceOf,
  isQuestion,
  Library,
  type LibraryEntry,
  mapThrough,
  PARTLY_STATED_PREFIX,
  type PassageHit,
  partsOf,
  pointsFor,
  practicesOf,
  STATED,
  saysWhatIsDone,
  shapeOf,
  statedIn,
  TRANSFERRED,
} from '../../../server/answering/engine.ts'
import { doc, spaceOf, YES_NO } from './passages.ts'

/**
 * Issue 27: the kinds of answer that were shown High on questionnaires the engine was never tuned
 * for, each with documents made for these tests and judged by the rule of the judged development
 * set (tests/fixtures/eval/judged-*.json): an answer is given only from sentences that state what
 * the question asks; a sentence that states part of it gives at most a partly stated Yes, never
 * High; a neighbouring practice, a list, a requirement, an option or the question's frame words
 * give none.
 */

const HIGH = CONFIDENCE_BANDS.find((band) => band.band === 'high')?.floor ?? 0.8

const answer = (text: string, passages: PassageHit[], library: LibraryEntry[] = []) => {
  const lib = new Library(library)
  const space = spaceOf(passages)
  return answerFromEvidence(
    { text, vocabulary: YES_NO },
    lib.match(text),
    passages,
    space,
    lib.about(text),
    lib,
  )
}
/** The Yes or No given, if any (a withheld lead is no answer). */
const given = (text: string, passages: PassageHit[], library: LibraryEntry[] = []) =>
  answer(text, passages, library).candidates.find(
    (candidate) => candidate.choice && !candidate.withheld,
  )

describe('what a sentence states', () => {
  it("takes a control's text, a command, an option, advice, a customer's duty and a definition for no statement", () => {
    for (const sentence of [
      'Establish, document, approve, communicate, apply, evaluate and maintain policies and procedures for vulnerability management.',
      'XYZ-04 Define and implement processes for the secure disposal of equipment.',
      'Conduct independent audit and assurance assessments according to relevant standards at least annually.',
      'The service provider should ensure that audit logs are protected against tampering.',
      'It is possible to strengthen security by leveraging host-based intrusion detection and encryption.',
      'You can choose to back up content in more than one region.',
      'We recommend that backups are encrypted with customer-managed keys.',
      'Backup and retention policies are the responsibility of the customer.',
      'TLS is a protocol for encrypting network traffic between two parties.',
      'For customers who choose to use our encryption service, keys are held in validated modules.',
      'The provider commits to high levels of availability in its service level agreements.',
      'Use secure and encrypted channels when migrating servers or data to cloud environments.',
      'Review and revalidate user access for least privilege at planned intervals.',
      'Report security breaches, including relevant supply chain breaches, as per applicable laws.',
      'CSPs periodically review risk factors associated with all organizations within their supply chain.',
    ])
      expect(saysWhatIsDone(sentence), sentence).toBe(false)
    // a question, even cut short by the page, states nothing
    expect(isQuestion('Are supply chain agreements between CSPs and')).toBe(true)
    expect(isQuestion('Backups are encrypted with AES-256.')).toBe(false)
    for (const sentence of [
      'We encrypt all customer data at rest using AES-256.',
      'Audit logs of administrative actions are kept for a year.',
      'Review of access rights is performed quarterly by each system owner.',
      'Use of removable media is blocked on every company laptop.',
      'Audit logs are kept for a year in a store that staff cannot alter.',
      'Test results are reviewed by the quality lead before every release.',
      'The security team runs vulnerability scans of every production host each week.',
    ])
      expect(saysWhatIsDone(sentence), sentence).toBe(true)
  })

  it('takes a term defined, a kind of document described in general and a sanction clause for no statement (issue 38)', () => {
    for (const sentence of [
      // a definition says what a word means, not what anyone does
      'Reasonable inquiry means an inquiry designed to uncover any information about the encryption of backups.',
      '"Covered equipment" refers to telecommunications equipment produced by the named vendors.',
      'Personal data is defined as any information relating to an identified person.',
      // what such a document does in general, not that the organisation has one
      'An incident response policy clearly defines the roles and responsibilities around a data breach.',
      'A business continuity plan describes how critical services are restored after a disruption.',
      // what befalls whoever breaks the policy, not a practice of the organisation
      'Intentionally or maliciously violating this policy is a serious offense and grounds for termination of employment.',
      'Violations of these procedures may result in disciplinary action, up to and including termination.',
    ])
      expect(saysWhatIsDone(sentence), sentence).toBe(false)
    for (const sentence of [
      // the organisation's own, named: stated
      'Our incident response policy defines the roles of the on-call engineer and the security lead.',
      'An incident response plan is in place and is tested every year.',
      'A dedicated security team reviews every violation reported through the internal tool.',
      'Access is revoked on the day of termination of employment.',
    ])
      expect(saysWhatIsDone(sentence), sentence).toBe(true)
  })

  it('reads a list of certifications as naming them, stating none', () => {
    const list =
      'Our platform is audited under ISO 27001, SOC 1, SOC 2, SOC 3 and PCI DSS certification programs each year.'
    expect(practicesOf(list)).toContain('soc2-report')
    expect(statedIn(list)).not.toContain('soc2-report')
    expect(
      statedIn('We hold a SOC 2 Type II report, renewed every year by an external auditor.'),
    ).toContain('soc2-report')
  })

  it('reads a claim that something is audited as stating the audit, not the practice audited', () => {
    const audited =
      'Privileged access controls are reviewed by an independent auditor during our annual certification audits.'
    expect(statedIn(audited)).not.toContain('privileged-access')
  })
})

describe('failure kinds: no Yes that the source does not state', () => {
  it('(1) a qualifier asked and not stated: partly stated, never High, and the part is named', () => {
    const scans = doc(
      'Vulnerability Standard.pdf',
      'The security team runs authenticated vulnerability scans of every production host each week using a commercial scanner.',
    )
    const result = given('Are vulnerability scans of production hosts automated?', [scans])
    expect(result?.reason?.startsWith(PARTLY_STATED_PREFIX)).toBe(true)
    expect(result?.confidence).toBeLessThan(HIGH)
    expect(result?.parts).toEqual([
      expect.objectContaining({ kind: 'practice', sentence: expect.stringContaining('scans') }),
      expect.objectContaining({ label: 'automated', kind: 'qualifier', sentence: null }),
    ])
    // stated: the same question from a sentence that says it is automated is a plain Yes
    const automated = doc(
      'Vulnerability Standard.pdf',
      'Authenticated vulnerability scans of every production host run automatically each week using a commercial scanner.',
    )
    expect(
      given('Are vulnerability scans of production hosts automated?', [automated])?.reason,
    ).toBe(STATED)
  })

  it('(1) a documented practice asked of a sentence that says only that it is done: partly stated', () => {
    const done = doc(
      'Engineering handbook.pdf',
      'Every production change is reviewed by a second engineer and approved in the change ticket before release.',
    )
    const result = given('Do you have a documented change management policy?', [done])
    if (result) {
      expect(result.confidence).toBeLessThan(HIGH)
      expect(result.parts?.find((part) => part.kind === 'documented')?.sentence).toBeNull()
    }
  })

  it('(2) a neighbouring practice is no evidence: penetration tests for an audit, scanning for remediation', () => {
    const pentest = doc(
      'Security overview.pdf',
      'We commission annual third-party security audits (penetration testing) of the platform from a specialist firm.',
    )
    expect(
      given('Are independent audits of the security program conducted annually?', [pentest]),
    ).toBeUndefined()
    const scans = doc(
      'Vulnerability Standard.pdf',
      'The security team runs authenticated vulnerability scans of every production host each week using a commercial scanner.',
    )
    expect(
      given('Is vulnerability remediation tracked against defined timelines?', [scans]),
    ).toBeUndefined()
    // the practice itself, stated: a Yes
    const remediation = doc(
      'Vulnerability Standard.pdf',
      'Vulnerabilities found by our scanners are remediated within 30 days, and critical ones within 7 days, against timelines tracked in the ticketing system.',
    )
    expect(
      given('Is vulnerability remediation tracked against defined timelines?', [remediation])
        ?.choice,
    ).toBe('Yes')
  })

  it('(3) a list of certifications states none of them', () => {
    const list = doc(
      'Compliance.pdf',
      'Our hosting provider is audited under ISO 27001, SOC 1, SOC 2, SOC 3 and PCI DSS certification programs each year.',
    )
    expect(
      given('Does the hosting provider have a SOC 2 report available?', [list]),
    ).toBeUndefined()
  })

  it("(4) sentences sharing only the question's frame words make no answer, only a lead", () => {
    const frame = doc(
      'Policies.pdf',
      'All policies are maintained in a central location that is accessible by every employee and reviewed annually.',
    )
    const result = answer(
      'Do you have a documented process for reporting and tracking accessibility issues?',
      [frame],
    )
    expect(result.candidates.filter((candidate) => candidate.choice || candidate.text)).toEqual([])
  })

  it("a control's text, an option and a customer's duty answer nothing", () => {
    const control = doc(
      'Controls matrix.pdf',
      'Establish, document, approve, communicate, apply, evaluate and maintain policies and procedures for the secure transportation of physical media.',
    )
    expect(given('Do you have a documented media handling process?', [control])).toBeUndefined()
    const option = doc(
      'Whitepaper.pdf',
      'It is possible to enhance security by leveraging technology such as host-based firewalls and host-based intrusion detection.',
    )
    expect(given('Do you employ host-based intrusion detection?', [option])).toBeUndefined()
    const duty = doc(
      'Whitepaper.pdf',
      'Backup and retention policies are the responsibility of the customer.',
    )
    expect(given('Are data backups encrypted?', [duty])).toBeUndefined()
  })

  it('a question asking whether a flaw is present is not answered Yes from the practice around it', () => {
    const policy = doc(
      'Password standard.pdf',
      'Passwords are managed under our password policy, with a minimum length of 14 characters and hashing with bcrypt.',
    )
    expect(
      given('Are there any passwords hard-coded into your systems or products?', [policy]),
    ).toBeUndefined()
    const library: LibraryEntry[] = [
      {
        source: 'qa',
        id: 1,
        fileId: null,
        title: 'Library',
        question: 'Do you have a password policy?',
        answer: 'Yes',
        detail: 'Passwords are hashed with bcrypt.',
        dropdown: null,
        location: null,
      },
    ]
    const result = given('Are you storing any passwords in plaintext?', [], library)
    expect(result?.reason === TRANSFERRED && result.choice === 'Yes').toBe(false)
  })
})

describe('the parts and the shape of a question', () => {
  it('splits a question into its practice and what it asks of it', () => {
    expect(partsOf('Is the business continuity plan tested at least annually?', [])).toEqual([
      { label: 'business continuity', kind: 'practice', sentence: null },
      { label: 'annually', kind: 'frequency', sentence: null },
      { label: 'tested', kind: 'tested', sentence: null },
    ])
    // what is asked of the practice is said of it: a weekly scan does not make the plan annual
    const parts = partsOf('Is the business continuity plan tested at least annually?', [
      'We scan every host for vulnerabilities weekly.',
      'Our business continuity plan is exercised in a tabletop test every year.',
    ])
    expect(parts.every((part) => part.sentence?.startsWith('Our business continuity plan'))).toBe(
      true,
    )
  })

  it('tells a single practice, one with qualifiers, a governance list and a compound question apart', () => {
    expect(shapeOf('Do you perform penetration testing?')).toBe('single')
    expect(shapeOf('Are vulnerability scans automated?')).toBe('qualified')
    expect(
      shapeOf(
        'Are incident response policies and procedures established, documented, approved, communicated, applied, evaluated and maintained?',
      ),
    ).toBe('governance')
    expect(shapeOf('Do you encrypt data at rest and rotate encryption keys?')).toBe('compound')
    expect(shapeOf('What is your company name?')).toBe('none')
  })

  it("calibrates by a kind's points on the question's shape when it has its own, else the kind's", () => {
    const table = {
      stated: [[0.7, 0.9]] as [number, number][],
      'stated/compound': [[0.7, 0.4]] as [number, number][],
    }
    expect(mapThrough(pointsFor(table, 'stated', 'compound'), 0.7)).toBe(0.4)
    expect(mapThrough(pointsFor(table, 'stated', 'single'), 0.7)).toBe(0.9)
    expect(pointsFor(table, 'library', 'single')).toBeUndefined()
  })

  it("says what the answer's band means, in words", () => {
    expect(assuranceOf(0.96)).toBe('High: right 96 % of the time on questionnaires like this one.')
    expect(assuranceOf(0.55)).toMatch(/^Medium: right 55 % /)
    expect(assuranceOf(0.2)).toMatch(/^Low: right 20 % /)
    expect(assuranceOf(null)).toBeNull()
  })
})
