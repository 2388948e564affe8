import { describe, expect, it } from 'vitest'
import {
  answerFromEvidence,
  Library,
  type PassageHit,
  SEVERAL_DATA_ITEMS,
  submissionField,
  TODAY_REASON,
} from '../../../server/answering/engine.ts'
import { TfIdf } from '../../../server/answering/text.ts'
import { fileEntry } from '../../fixtures/library.ts'

/**
 * Fields that describe the submission (issues 30 and 38): known in the wordings forms use, filled
 * from the organisation's data items, a date field from the day answered, else left for the
 * person; another questionnaire's row is never the answer nor a candidate, at any confidence.
 * Libraries and data items made for these tests.
 */

let nextId = 1
const dataItem = (title: string, value: string): PassageHit => ({
  id: nextId++,
  fileId: null,
  source: 'data',
  title,
  text: `${title}: ${value}`,
  location: null,
  rank: 0,
})

/** A completed questionnaire of last year in the library, for another product. */
const lastYear = [
  fileEntry(1, 'Date', '2024-04-30'),
  fileEntry(1, 'Vendor Name', 'Acme Learning'),
  fileEntry(1, 'Product Name', 'Acme Badges'),
  fileEntry(1, 'Vendor Contact Name', 'Pat Jones'),
  fileEntry(1, 'Vendor Contact Phone Number', '+1 555 0100'),
  fileEntry(1, 'Do you encrypt customer data at rest?', 'Yes'),
]
const asOf = new Date('2025-06-02T09:00:00Z')
const answer = (library: Library, text: string) =>
  answerFromEvidence(
    { text, vocabulary: null, asOf },
    library.match(text),
    [],
    new TfIdf(),
    [],
    library,
  )
const HIGH = 0.8

describe('fields that describe the submission', () => {
  it('knows them by their label, and nothing else by theirs', () => {
    for (const label of [
      'Date',
      'Date completed',
      'Vendor Name',
      'Company name',
      'Product Name',
      'Solution name',
      'Vendor Contact Name',
      'Vendor Contact Title',
      'Vendor Accessibility Contact Email',
      'Vendor Contact Phone Number',
      'Headquarters address',
      'Company website',
      'What is your company name?',
      'Please provide the name of the person completing this questionnaire',
    ])
      expect(submissionField({ text: label, vocabulary: null }), label).not.toBeNull()
    // the wordings of vendor assessments and portal exports (issue 38), each read as its field
    const fields: [string, string][] = [
      ['Company Legal Name', 'name vendor'],
      ['Legal Entity Name', 'name vendor'],
      ['Name of company', 'name vendor'],
      ['Name of Product/Service', 'name product'],
      ['Product Name and Version', 'name product'],
      ['Name of the product or service in scope', 'name product'],
      ['Primary Contact', 'name contact'],
      ['Point of Contact', 'name contact'],
      ['Vendor Contact', 'name contact'],
      ['Completed By', 'name contact'],
      ['Respondent Name', 'name contact'],
      ['Contact Title', 'title contact'],
      ['Job Title', 'title contact'],
      ['Title/Role', 'title contact'],
      ['Contact E-mail', 'email contact'],
      ['Email Address', 'email contact'],
      ['Contact Email Address', 'email contact'],
      ['Contact Phone', 'phone contact'],
      ['Date Completed', 'date vendor'],
      ['Assessment Date', 'date vendor'],
      ['Date of Assessment', 'date vendor'],
      ['Completion Date', 'date vendor'],
    ]
    for (const [label, expected] of fields) {
      const field = submissionField({ text: label, vocabulary: null })
      expect(`${field?.head} ${field?.subject}`, label).toBe(expected)
    }
    for (const label of [
      'Date of last penetration test',
      'Product Description',
      'Vendor Hosting Regions',
      'Web Link to Product Privacy Notice',
      'Title',
      'Describe your incident response process.',
      'Do you have a named security contact?',
      'Date of last risk assessment',
      'Product version',
      'Roles and responsibilities',
      'Point of contact for security incidents',
      'Who reviews the access logs?',
    ])
      expect(submissionField({ text: label, vocabulary: null }), label).toBeNull()
    // a dropdown cell is a choice, not a field to fill
    expect(submissionField({ text: 'Vendor Name', vocabulary: ['Yes', 'No'] })).toBeNull()
  })

  it("fills a date field with the day answered, never another questionnaire's date", () => {
    const result = answer(new Library(lastYear), 'Date')
    expect(result.candidates).toHaveLength(1)
    expect(result.candidates[0]).toMatchObject({ text: '2025-06-02', reason: TODAY_REASON })
    expect(result.candidates[0]?.confidence).toBeLessThan(HIGH)
    expect(JSON.stringify(result)).not.toContain('2024-04-30')
  })

  it("fills a field from the organisation's data item, never from another questionnaire's row", () => {
    const library = new Library(lastYear, [
      dataItem('Company name', 'Acme Learning Ltd'),
      dataItem('Security contact', 'security@acme.example'),
    ])
    const vendor = answer(library, 'Vendor Name')
    expect(vendor.candidates[0]).toMatchObject({ text: 'Acme Learning Ltd', choice: null })
    expect(vendor.candidates[0]?.confidence).toBeGreaterThanOrEqual(HIGH)
    expect(vendor.candidates[0]?.citations[0]).toMatchObject({ source: 'data' })
    // last year's 'Acme Learning' is not offered, at any confidence
    expect(vendor.candidates.map((candidate) => candidate.text)).toEqual(['Acme Learning Ltd'])
    // a data item that names only whose it is: its value says what it holds
    expect(answer(library, 'Security Contact Email').candidates[0]?.text).toBe(
      'security@acme.example',
    )
    // a contact that is not the security one is not filled from it, nor from another field's row
    const accessibility = answer(library, 'Vendor Accessibility Contact Email')
    expect(accessibility.candidates).toEqual([])
    expect(accessibility.note).toContain('Left for you to fill in')
  })

  it("leaves a field no data item holds for the person to fill, another questionnaire's row not offered at all", () => {
    for (const label of [
      'Vendor Contact Phone Number',
      'Product Name',
      'Vendor Contact Name',
      // the same fields in other wordings: last year's row is not theirs either
      'Primary Contact',
      'Name of Product/Service',
      'Contact Phone',
    ]) {
      const result = answer(new Library(lastYear), label)
      expect(result.candidates, label).toEqual([])
      expect(result.note, label).toContain('Left for you to fill in')
      expect(result.note, label).toContain(label)
    }
    // a date in any wording is today's, never last year's
    for (const label of ['Assessment Date', 'Date Completed']) {
      const result = answer(new Library(lastYear), label)
      expect(
        result.candidates.map((candidate) => candidate.text),
        label,
      ).toEqual(['2025-06-02'])
    }
    // with nothing at all, the answer is empty and says why
    const empty = answer(new Library([]), 'Vendor Contact Phone Number')
    expect(empty.candidates).toEqual([])
    expect(empty.note).toMatch(/^Left for you to fill in: “Vendor Contact Phone Number”/)
  })

  it('gives a product name from a data item for checking, and several for choosing', () => {
    const one = answer(new Library([], [dataItem('Product name', 'Acme Badges')]), 'Product Name')
    expect(one.candidates[0]).toMatchObject({ text: 'Acme Badges' })
    expect(one.candidates[0]?.confidence).toBeLessThan(HIGH)
    expect(one.candidates[0]?.reason).toContain('check that this questionnaire is about')
    const two = answer(
      new Library([], [dataItem('Product name', 'Acme Badges'), dataItem('Product', 'Acme Maps')]),
      'Product Name',
    )
    expect(two.candidates[0]).toMatchObject({ text: '', withheld: SEVERAL_DATA_ITEMS })
    expect(two.candidates.slice(1).map((candidate) => candidate.text)).toEqual([
      'Acme Badges',
      'Acme Maps',
    ])
  })

  it('answers a question about a practice as before', () => {
    const result = answerFromEvidence(
      { text: 'Do you encrypt customer data at rest?', vocabulary: ['Yes', 'No'] },
      new Library(lastYear).match('Do you encrypt customer data at rest?'),
      [],
      new TfIdf(),
    )
    expect(result.candidates[0]?.choice).toBe('Yes')
  })
})
