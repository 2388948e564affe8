import { describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  Library,
  TRANSFERRED,
  transferAnswer,
} from '../../../server/answering/engine.ts'
import { fileEntry } from '../../fixtures/library.ts'

/** Library answers across frameworks: the same practice and scope, asked in other words. */

const YES_NO = ['Yes', 'No', 'N/A']
const CAIQ_KEYS =
  'Are cryptographic key management policies and procedures established, documented, approved, communicated, applied, evaluated and maintained?'

const answer = (library: Library, text: string, vocabulary: string[] | null = YES_NO) =>
  answerFromEvidence(
    { text, vocabulary },
    library.match(text),
    [],
    library.space,
    library.about(text),
    library,
  )

describe('library answers across frameworks', () => {
  const keyPolicy = fileEntry(
    1,
    'Do you have a documented key management policy?',
    'Yes',
    'Keys are generated and rotated in a managed key service under the Encryption Policy.',
  )
  const filler = [
    fileEntry(1, 'Do you have a formal incident response plan?', 'Yes'),
    fileEntry(1, 'Do you run annual penetration tests?', 'Yes'),
    fileEntry(1, 'Is a web application firewall in place?', 'No'),
  ]

  it('answers a question in other words from an answer about the same practice, cited, below a same-question match', () => {
    const library = new Library([keyPolicy, ...filler])
    // the wording is far from the library's: no same-question match
    expect(library.match(CAIQ_KEYS)[0]?.score ?? 0).toBeLessThan(0.4)
    const result = answer(library, CAIQ_KEYS)
    const [first] = result.candidates
    expect(first?.choice).toBe('Yes')
    expect(first?.reason).toBe(TRANSFERRED)
    expect(first?.text).toContain('managed key service')
    expect(first?.citations[0]?.snippet).toContain(
      'Do you have a documented key management policy?',
    )
    expect(first?.citations[0]?.title).toBe('Completed questionnaire 1.xlsx')
    expect(first?.citations[0]?.kind).toBe('library')
    // never High: an answer to another question (the fitted table says how often such answers
    // state what is asked)
    expect(first?.confidence).toBeLessThan(0.8)
    expect(first?.confidence).toBeGreaterThan(0)
    // the same question asked as the library has it: reused at a higher confidence
    const same = answer(library, keyPolicy.question)
    expect(same.candidates[0]?.reason).toBeUndefined()
    expect(same.candidates[0]?.confidence).toBeGreaterThan(first?.confidence ?? 1)
  })

  it('transfers a No as well, mapped onto the cell’s values', () => {
    const library = new Library([
      ...filler,
      fileEntry(1, 'Do you have a documented data retention policy?', 'No'),
    ])
    const asked =
      'Are policies and procedures for the retention of information established, documented, approved, communicated, applied, evaluated and maintained?'
    expect(library.match(asked)[0]?.score ?? 0).toBeLessThan(0.4)
    const result = answer(library, asked, ['1) Yes', '2) No'])
    expect(result.candidates[0]).toMatchObject({ choice: '2) No', reason: TRANSFERRED })
  })

  it('does not transfer across practices, scopes, or records that disagree', () => {
    const library = new Library([keyPolicy, ...filler])
    // another practice: backups
    expect(
      transferAnswer(
        {
          text: 'Are backup policies and procedures established and maintained?',
          vocabulary: YES_NO,
        },
        library,
        library.space,
      ),
    ).toBeNull()
    // the same practice, another scope: how often is not in the library's answer
    const drTest = new Library([fileEntry(2, 'Do you have a disaster recovery plan?', 'Yes')])
    expect(
      transferAnswer(
        { text: 'Is the disaster recovery plan tested annually?', vocabulary: YES_NO },
        drTest,
        drTest.space,
      ),
    ).toBeNull()
    // two sources that answer the practice both ways
    const split = new Library([
      keyPolicy,
      fileEntry(3, 'Is there an approved key management procedure?', 'No'),
    ])
    expect(transferAnswer({ text: CAIQ_KEYS, vocabulary: YES_NO }, split, split.space)).toBeNull()
  })

  it('takes a Yes about the practice and another as a Yes about the practice; never a No', () => {
    const asked = 'Do you use firewalls?'
    const yes = new Library([
      ...filler,
      fileEntry(4, 'Do you have a documented policy for firewall change requests?', 'Yes'),
    ])
    expect(transferAnswer({ text: asked, vocabulary: YES_NO }, yes, yes.space)).toMatchObject({
      choice: 'Yes',
      reason: TRANSFERRED,
    })
    // 'no policy for firewall change requests' says nothing about whether there are firewalls
    const no = new Library([
      ...filler,
      fileEntry(4, 'Do you have a documented policy for firewall change requests?', 'No'),
    ])
    expect(transferAnswer({ text: asked, vocabulary: YES_NO }, no, no.space)).toBeNull()
  })

  it('reads a question that refers back through the question before it', () => {
    const library = new Library([keyPolicy, ...filler])
    const followUp = 'Are the policies and procedures reviewed and updated at least annually?'
    // alone, it names no practice
    expect(
      transferAnswer({ text: followUp, vocabulary: YES_NO }, library, library.space),
    ).toBeNull()
    const annual = new Library([
      ...filler,
      fileEntry(
        5,
        'Do you have a documented key management policy?',
        'Yes',
        'The Encryption Policy is reviewed and updated every year by the security team.',
      ),
    ])
    expect(
      transferAnswer(
        { text: followUp, vocabulary: YES_NO, previous: CAIQ_KEYS },
        annual,
        annual.space,
      ),
    ).toMatchObject({ choice: 'Yes', reason: TRANSFERRED })
    // the library's answer says nothing of how often: no answer
    expect(
      transferAnswer(
        { text: followUp, vocabulary: YES_NO, previous: CAIQ_KEYS },
        library,
        library.space,
      ),
    ).toBeNull()
    // a question that does not refer back is not read through the one before it
    expect(
      transferAnswer(
        { text: 'Is your company publicly traded?', vocabulary: YES_NO, previous: CAIQ_KEYS },
        annual,
        annual.space,
      ),
    ).toBeNull()
  })

  it('answers nothing for a question that is not Yes/No or names no practice', () => {
    const library = new Library([keyPolicy, ...filler])
    expect(
      transferAnswer(
        { text: 'Describe your key management policy.', vocabulary: null },
        library,
        library.space,
      ),
    ).toBeNull()
    expect(
      transferAnswer(
        { text: 'Is your company publicly traded?', vocabulary: YES_NO },
        library,
        library.space,
      ),
    ).toBeNull()
  })

  it('reads each framework’s words for whose data and for the practice itself as the same (issue 38, item 6)', () => {
    // a HECVAT library asked a SIG- or VSA-worded question: the customer's data is what HECVAT
    // calls sensitive or institutional data; 'team or function', 'over public networks' and
    // 'prior to hire' are the practice's own definition, not more scope a row must hold
    const hecvat = new Library([
      fileEntry(1, 'Do you have a dedicated Information Security staff or office?', 'Yes'),
      fileEntry(
        1,
        'Is sensitive data encrypted, using secure protocols/algorithms, in transport? (e.g., system-to-client)',
        'Yes',
      ),
      fileEntry(
        1,
        'Is sensitive data encrypted, using secure protocols/algorithms, in storage? (e.g. disk encryption, at-rest, files, and within a running database)',
        'Yes',
      ),
      fileEntry(1, 'Do you perform background checks on all employees?', 'Yes'),
      ...filler,
    ])
    for (const text of [
      'Does the organization have a dedicated information security team or function?',
      'Is customer data encrypted in transit over public networks?',
      'Is client data encrypted at rest?',
      'Are background checks performed on new employees prior to hire?',
    ]) {
      const moved = transferAnswer({ text, vocabulary: YES_NO }, hecvat, hecvat.space)
      expect(moved?.choice, text).toBe('Yes')
      expect(moved?.reason, text).toBe(TRANSFERRED)
    }
    // another owner's data is not the customer's
    const laptops = new Library([
      fileEntry(1, 'Are employee laptops encrypted at rest?', 'Yes'),
      ...filler,
    ])
    expect(
      transferAnswer(
        { text: 'Is customer data encrypted at rest?', vocabulary: YES_NO },
        laptops,
        laptops.space,
      ),
    ).toBeNull()
  })
})
