import { describe, expect, it } from 'vitest'
import {
  type PassageHit,
  practiceAnswer,
  practicesOf,
  STATED,
} from '../../../server/answering/engine.ts'
import { doc, spaceOf, YES_NO } from './passages.ts'

/**
 * Issue 38, item 6 (recall): a question whose practice a document states in other words is
 * answered from it. The practice's own name in the question ('between trusted and untrusted
 * networks' for segmentation, SC-7; 'cyber-risk insurance' for cyber insurance) is the practice,
 * not something more a passage must also hold. Documents made for these tests.
 */

const ask = (text: string, passages: PassageHit[]) =>
  practiceAnswer({ text, vocabulary: YES_NO }, passages, spaceOf(passages))

describe('a practice named in the words of its own definition', () => {
  it('reads trusted/untrusted network wording as network segmentation', () => {
    for (const text of [
      'Do you enforce network segmentation between trusted and untrusted networks?',
      'Is traffic between trusted and untrusted networks controlled?',
      'Are untrusted networks kept apart from trusted networks?',
    ])
      expect(practicesOf(text), text).toContain('network-segmentation')
    // 'trusted' alone, of partners or of staff, is no network
    expect(practicesOf('Do you share data only with trusted partners?')).not.toContain(
      'network-segmentation',
    )
  })

  it('answers a segmentation question from a sentence that states it in other words', () => {
    const question = 'Do you enforce network segmentation between trusted and untrusted networks?'
    for (const sentence of [
      'Production servers run in isolated subnets behind a gateway, so that traffic from the internet never reaches the database tier directly.',
      'Our services are hosted in a virtual private cloud, and only the load balancer accepts connections from the internet.',
      'Public web servers sit in a DMZ, and the network segmentation keeps the internal network that holds customer data apart from them.',
    ]) {
      const result = ask(question, [doc('Network Architecture.pdf', `Network. ${sentence}`, 2)])
      expect(result?.choice, sentence).toBe('Yes')
      expect(result?.reason, sentence).toBe(STATED)
      expect(result?.text, sentence).toBe(sentence)
    }
  })

  it('does not cite a neighbouring sentence that states another practice', () => {
    const question = 'Do you enforce network segmentation between trusted and untrusted networks?'
    // a firewall, a trusted partner, a VPN: near the words, not the practice asked
    const neighbours = doc(
      'Network Architecture.pdf',
      'Network. Only trusted partners receive an account on the support portal after review. Remote staff connect over an encrypted VPN tunnel with their own credentials.',
      2,
    )
    expect(ask(question, [neighbours])).toBeNull()
  })

  it('reads cyber-risk insurance as cyber insurance', () => {
    for (const text of [
      'Do you carry cyber-risk insurance?',
      'Does the company hold cyber risk insurance coverage?',
      'The company maintains a cyber liability insurance policy.',
    ])
      expect(practicesOf(text), text).toContain('cyber-insurance')
    // cyber risk without insurance is risk management, not insurance
    expect(practicesOf('Do you assess cyber risk annually?')).not.toContain('cyber-insurance')
  })

  it('answers a cyber-risk insurance question from a sentence naming the coverage', () => {
    const question = 'Do you carry cyber-risk insurance?'
    for (const sentence of [
      'The company holds a cyber insurance policy with a limit of five million dollars.',
      'We maintain cyber liability coverage through a national insurer, renewed every year.',
    ]) {
      const result = ask(question, [doc('Risk Register.pdf', `Insurance. ${sentence}`)])
      expect(result?.choice, sentence).toBe('Yes')
      expect(result?.text, sentence).toBe(sentence)
    }
    // a risk assessment near the word 'insurance' is not the coverage
    const neighbour = doc(
      'Risk Register.pdf',
      'Insurance. Cyber risk is assessed every quarter by the security committee and reported to the board.',
    )
    expect(ask(question, [neighbour])?.choice ?? null).toBeNull()
  })

  it('reads vulnerability detection and assessment wording as vulnerability scanning', () => {
    for (const text of [
      'Are processes defined for vulnerability detection on managed assets?',
      'Vulnerability detection runs against every production host each week.',
      'Do you perform vulnerability assessments of your infrastructure?',
      'Quarterly vulnerability assessments cover all internet-facing systems.',
    ])
      expect(practicesOf(text), text).toContain('vulnerability-scanning')
    // an assessment that found no vulnerabilities is an assessment, not scanning
    expect(
      practicesOf('Third-party security assessments found no critical vulnerabilities.'),
    ).not.toContain('vulnerability-scanning')
  })

  it('does not ask a sentence that states scanning for the detection the question names', () => {
    const question = 'Is vulnerability detection performed on managed assets?'
    for (const sentence of [
      'Our security team runs authenticated vulnerability scans of all managed assets every week.',
      'All managed assets are scanned for vulnerabilities by an external tool each month.',
    ]) {
      const result = ask(question, [doc('Vulnerability Standard.pdf', `Scanning. ${sentence}`)])
      expect(result?.choice, sentence).toBe('Yes')
      expect(result?.text, sentence).toBe(sentence)
    }
    // a neighbouring sentence about patching states no scanning
    const neighbour = doc(
      'Vulnerability Standard.pdf',
      'Patching. Operating system patches are applied to all managed assets within thirty days of release.',
    )
    expect(ask(question, [neighbour])?.choice ?? null).toBeNull()
  })
})

/**
 * Found while measuring item 6 and left for a later turn (each a cause, with why it is not fixed
 * here): see the notes.
 */
describe('recall left to do (issue 38, item 6)', () => {
  // evidence.ts: any library No about the practice (a narrower question: physical off-site
  // backups, an institution extracting a backup) contests every document Yes about it; the
  // engine tests hold that a narrower No ('notify customers within 24 hours') stands, so a rule
  // telling a narrower No from a denial of the practice needs those decided first
  it.todo(
    "answers 'Is data periodically backed up?' from a daily-backup sentence despite a library No to a narrower backup question",
  )
  // scope.ts: the purpose clause ('to protect against outages, data lost or stolen') counts at
  // half, term by term; a sentence that names the practice and its purpose in other words
  // ('protects its business from losses should a breach occur') holds too little of it
  it.todo(
    'answers an insurance question whose purpose clause the stating sentence words differently',
  )
  // ingest: a sentence a page break cuts ('... on their work machines to' / 'protect their private
  // keys') is read as two fragments, neither stating the practice with its scope
  it.todo('reads a sentence cut by a page break as one sentence')
  // framing.ts: a question misspelt ('accomodate') keeps the misspelt word as scope; tolerating
  // one letter let a garbled table row ('There is no state stored on ...') deny data location
  it.todo('reads a misspelt frame word as the word, without a denial from a garbled row')
})
