import { describe, expect, it } from 'vitest'
import { askedItems, unsaidParts } from '../../../server/answering/support.ts'

/** What a question asks for, part by part, and what of it the texts shown leave unsaid (issue 30). */
describe('asked items and unsaid parts', () => {
  it('reads the things a who/what/which question asks for, in its own words', () => {
    expect(
      askedItems('Who is our cyber insurance carrier and what is the coverage limit?').map(
        (item) => item.label,
      ),
    ).toEqual(['the cyber insurance carrier', 'the coverage limit'])
    expect(
      askedItems('What is the name of your data protection officer, and their email address?').map(
        (item) => item.label,
      ),
    ).toEqual(['the name of your data protection officer', 'the email address'])
    // a Yes/No question, and clauses that ask how or where, ask for no thing
    expect(askedItems('Do you encrypt backups and logs?')).toEqual([])
    expect(askedItems('Where are backups stored and how long are they kept?')).toEqual([])
    expect(askedItems('Which region hosts the standby?')).toEqual([])
  })

  it('names the parts no text says: a value asked needs a number', () => {
    const question = {
      text: 'What is our RTO and what is the standby region?',
      vocabulary: null,
    }
    expect(
      unsaidParts(question, ['The standby environment runs in the Frankfurt region.'], null),
    ).toEqual(['the rto'])
    const limit = {
      text: 'Who is our cyber insurance carrier and what is the coverage limit?',
      vocabulary: null,
    }
    expect(unsaidParts(limit, ['We maintain cyber insurance coverage.'], null)).toEqual([
      'the cyber insurance carrier',
      'the coverage limit',
    ])
    expect(
      unsaidParts(limit, ['Our carrier is Beazley; the coverage limit is $5M per claim.'], null),
    ).toEqual([])
  })

  it('names what a Yes read from sentences does not state of the practice', () => {
    const question = { text: 'Are vulnerability scans automated?', vocabulary: ['Yes', 'No'] }
    expect(
      unsaidParts(question, [], ['We scan every host for vulnerabilities each week.']),
    ).toEqual(['that it is automated'])
    expect(
      unsaidParts(question, [], ['Automated vulnerability scans run on every host weekly.']),
    ).toEqual([])
  })
})
