import { describe, expect, it } from 'vitest'
import { answerFromEvidence, lookedFor } from '../../../server/answering/engine.ts'
import { asQuote } from '../../../server/answering/quoting.ts'
import { TfIdf } from '../../../server/answering/text.ts'
import { doc, spaceOf, YES_NO } from './passages.ts'

/**
 * Quotes and abstentions as a person would write them (issue 30): whole sentences from their
 * claim, and what was looked for in whole words. Documents made for these tests.
 */

describe('a sentence as a quote', () => {
  it('drops the lead-in that points back, and keeps the claim', () => {
    expect(asQuote('This is why our security program is built on ISO 27001.')).toBe(
      'Our security program is built on ISO 27001.',
    )
    expect(
      asQuote('This is why when it comes to the SDLC, we apply Agile principles to our products.'),
    ).toBe('When it comes to the SDLC, we apply Agile principles to our products.')
    expect(asQuote('In addition, all backups are encrypted with AES-256.')).toBe(
      'All backups are encrypted with AES-256.',
    )
    expect(asQuote('As mentioned above, access rights are reviewed every quarter.')).toBe(
      'Access rights are reviewed every quarter.',
    )
    expect(asQuote('And, speaking of standards, we build to the OWASP Top 10.')).toBe(
      'We build to the OWASP Top 10.',
    )
    // words that say what is done stay: 'Further testing', 'Annually, we', a name in lower case
    for (const whole of [
      'Further testing is done by the QA team each release.',
      'Annually, we test the disaster recovery plan.',
      'iOS devices are enrolled in device management.',
    ])
      expect(asQuote(whole)).toBe(whole)
  })

  it('does not quote a piece of a sentence a page cut', () => {
    expect(asQuote('protect their private keys and other sensitive data.')).toBeNull()
    expect(asQuote(', and the plan is tested every year.')).toBeNull()
  })

  it('quotes a document answer from a sentence start, without its lead-in', () => {
    const page = doc(
      'Continuity.pdf',
      'incidents that may arise from time to time and we test the disaster recovery plan annually. In addition, we conduct annual table-top exercises of the disaster recovery plan with the operations team.',
    )
    const result = answerFromEvidence(
      { text: 'Do you test your disaster recovery plan at least annually?', vocabulary: YES_NO },
      [],
      [page],
      spaceOf([page]),
    )
    const [first] = result.candidates
    expect(first?.choice).toBe('Yes')
    expect(first?.text).toBe(
      'We conduct annual table-top exercises of the disaster recovery plan with the operations team.',
    )
    expect(first?.citations[0]?.snippet).toBe(first?.text)
  })
})

describe('an abstention in words', () => {
  it('names what was asked in whole words of the question, without a list after "with:"', () => {
    const question =
      'Do you have a documented, risk-based independent assessment performed on your security program?'
    const note = lookedFor({ text: question, vocabulary: YES_NO }, new TfIdf()) as string
    expect(note).toMatch(
      /^No document or library answer says that .+ is in place as asked \(.+\)\.$/,
    )
    expect(note).not.toContain('with:')
    const asked = /\((.+)\)\.$/.exec(note)?.[1] as string
    const words = new Set(question.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g))
    // every word named is a whole word of the question: no stem ('bas' of 'risk-based')
    for (const word of asked.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [])
      expect(words.has(word), word).toBe(true)
    expect(asked).toContain('risk-based')
  })

  it('gives the closest sentence, whole and from its claim', () => {
    const exercise = doc(
      'Continuity.pdf',
      'Disaster recovery. As mentioned above, we conduct annual table-top exercises of the disaster recovery plan with the operations and support teams.',
    )
    const result = answerFromEvidence(
      {
        text: 'Are local emergency authorities included in the disaster recovery exercise?',
        vocabulary: YES_NO,
      },
      [],
      [exercise],
      spaceOf([exercise]),
    )
    expect(result.candidates[0]?.withheld).toBe(
      'No document or library answer says that disaster recovery is in place as asked (local emergency authorities included). Closest: “We conduct annual table-top exercises of the disaster recovery plan with the operations and support teams.”',
    )
  })
})
