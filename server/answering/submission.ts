import { passageCitation } from './cite.ts'
import { YES_NO_QUESTION } from './library.ts'
import type { EngineAnswer, PassageHit, QuestionInput } from './types.ts'

/**
 * Fields that describe the submission itself (issues 30 and 38): the date it is completed, the
 * vendor's or the product's name, the contact person, their title, email or phone, the address,
 * the website, in the wordings forms use ('Company Legal Name', 'Name of Product/Service',
 * 'Primary Contact', 'Contact E-mail', 'Assessment Date', 'Completed By'). Another
 * questionnaire's row answers them for that submission, not this one (its date is that day, its
 * product may be another, its contact may have left), so it is never this answer nor offered as
 * one, at any confidence. They come from the organisation's data items, a date field from the
 * day the questionnaire is answered; else the field is left for the person to fill in.
 */

type Head = 'date' | 'name' | 'title' | 'email' | 'phone' | 'address' | 'website'
type Subject = 'vendor' | 'product' | 'contact'

export interface SubmissionField {
  head: Head
  subject: Subject
  /** Which contact or name it is ('accessibility', 'security'); empty for the main one. */
  qualifiers: string[]
  /** A data item's title that names only whose it is ('Security contact'): its value says what. */
  inferred?: true
}

const HEADS: Record<string, Head> = {
  date: 'date',
  dated: 'date',
  name: 'name',
  title: 'title',
  role: 'title',
  position: 'title',
  email: 'email',
  'e-mail': 'email',
  mail: 'email',
  phone: 'phone',
  telephone: 'phone',
  tel: 'phone',
  mobile: 'phone',
  address: 'address',
  headquarters: 'address',
  website: 'website',
  url: 'website',
  homepage: 'website',
}
const SUBJECTS: Record<string, Subject> = {
  vendor: 'vendor',
  company: 'vendor',
  organisation: 'vendor',
  organization: 'vendor',
  supplier: 'vendor',
  provider: 'vendor',
  business: 'vendor',
  legal: 'vendor',
  registered: 'vendor',
  entity: 'vendor',
  product: 'product',
  solution: 'product',
  service: 'product',
  application: 'product',
  platform: 'product',
  software: 'product',
  contact: 'contact',
  respondent: 'contact',
  representative: 'contact',
  person: 'contact',
  poc: 'contact',
  signatory: 'contact',
}
const QUALIFIER_WORDS = new Set(
  'accessibility security privacy technical sales billing support secondary alternate emergency escalation compliance'.split(
    ' ',
  ),
)
/** Words a field's label may also hold ('Date completed', 'Name of the person completing this form'). */
const FILLER = new Set(
  "of the your our this and or for by to in 's s full main primary official job web site number no point completed completing completion submitted submitting submission prepared preparing signed filled questionnaire form response today todays current who is was what version scope being assessed".split(
    ' ',
  ),
)
/** What a date field may say beside 'date': the day of this submission, nothing else. */
const DATE_WORDS = new Set(
  'date dated of the this was is on completed completion submitted submission prepared signed filled response questionnaire form assessment today todays current'.split(
    ' ',
  ),
)
/** A label naming the person who fills the form in: 'Completed by', 'Prepared by'. */
const BY_PERSON = /\b(?:completed|prepared|submitted|filled(?: in| out)?|signed|answered) by\b/
/** Words that make a title a person's: 'Job Title', 'Title/Role'. */
const PERSONAL_TITLE = new Set(['job', 'role', 'position'])
/** Longest label read as a field: a question of more words asks more than a field. */
const FIELD_WORDS = 9
const ASKING = /^\s*(?:please\s+)?(?:provide|enter|state|give|specify|indicate|what\s+is|what's)\b/i

/** The organisation's data items: the library's, and any a search found. */
export function dataItemsOf(library: { data: PassageHit[] } | null, passages: PassageHit[]) {
  const all = [...(library?.data ?? []), ...passages.filter((hit) => hit.source === 'data')]
  return all.filter((hit, index) => all.findIndex((other) => other.id === hit.id) === index)
}

/** Whether a library row's question names the same field: another field's answer is none of this one's. */
export function sameField(field: SubmissionField, question: string): boolean {
  const other = submissionField({ text: question, vocabulary: null })
  return Boolean(
    other &&
      other.head === field.head &&
      other.subject === field.subject &&
      other.qualifiers.join(' ') === field.qualifiers.join(' '),
  )
}

/** The field a label names, when it describes the submission; null for anything else. */
export function submissionField(question: QuestionInput): SubmissionField | null {
  if (YES_NO_QUESTION.test(question.text)) return null
  // a dropdown cell is a choice among values, not a field to fill
  if (question.vocabulary?.length) return null
  return fieldOf(question.text.replace(ASKING, '').replace(/[?:]\s*$/, ''))
}

function fieldOf(label: string, headless = false): SubmissionField | null {
  const lower = label
    .toLowerCase()
    .replace(/\be\s*-?\s*mail(\s+address)?\b/g, 'email')
    .replace(/\bweb\s*site(\s+address)?\b|\bweb address\b/g, 'website')
    // the person filling the form in is its contact
    .replace(BY_PERSON, 'contact name')
  const words = lower.match(/[a-z0-9]+(?:-[a-z0-9]+)*|'s/g)
  if (!words?.length || words.length > FIELD_WORDS) return null
  const heads = new Set<Head>()
  const subjects = new Set<Subject>()
  const qualifiers: string[] = []
  const others: string[] = []
  for (const word of words) {
    const head = HEADS[word]
    const subject = SUBJECTS[word]
    if (head) heads.add(head)
    else if (subject) subjects.add(subject)
    else if (QUALIFIER_WORDS.has(word)) qualifiers.push(word)
    else if (!FILLER.has(word)) others.push(word)
  }
  if (heads.has('date'))
    return heads.size === 1 && words.every((word) => DATE_WORDS.has(word))
      ? { head: 'date', subject: 'vendor', qualifiers: [] }
      : null
  if (others.length) return null
  // a contact named without a head is the contact's name ('Primary Contact', 'Point of Contact');
  // a data item's title may name only whose it is ('Company', 'Security contact'): its value says what
  if (!heads.size && !headless && subjects.has('contact')) heads.add('name')
  if (heads.size > 1 || (!heads.size && (!headless || !subjects.size))) return null
  const subject = subjects.has('contact')
    ? 'contact'
    : subjects.has('product')
      ? 'product'
      : subjects.has('vendor')
        ? 'vendor'
        : null
  const [head] = heads
  // 'Title' alone may be a document's: a title is a person's only beside a contact or a job
  const personal = words.some((word) => PERSONAL_TITLE.has(word))
  if (head === 'title' && subject !== 'contact' && !personal) return null
  const defaultSubject: Subject = head === 'address' || head === 'website' ? 'vendor' : 'contact'
  return {
    head: head ?? 'name',
    subject: subject ?? (head === 'title' ? 'contact' : defaultSubject),
    qualifiers: qualifiers.sort(),
    ...(head ? {} : { inferred: true as const }),
  }
}

/** What a data item's value is, where its title names only whose it is. */
const headOfValue = (value: string): Head =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
    ? 'email'
    : /^https?:\/\/|^www\./i.test(value)
      ? 'website'
      : /^\+?[\d\s().-]{7,}$/.test(value)
        ? 'phone'
        : 'name'

/** A data item's value: its passage text after the title. */
const itemValue = (item: PassageHit) =>
  item.text.startsWith(`${item.title}:`) ? item.text.slice(item.title.length + 1).trim() : item.text

/** The data items that hold the field. */
function holding(field: SubmissionField, data: PassageHit[]): PassageHit[] {
  return data.filter((item) => {
    const value = itemValue(item)
    const own = fieldOf(item.title, true)
    if (!own || !value) return false
    // a title that names only whose it is ('Security contact') is read with what its value is
    return sameField(field, own.inferred ? `${item.title} ${headOfValue(value)}` : item.title)
  })
}

/**
 * The confidence of a field filled from the one data item that holds it: the organisation's own
 * record of the fact, named as the field names it. Set, not measured (no evaluation protocol has
 * data items); what can go wrong is the match of title to label, which asks the same head (name,
 * email, ...), the same subject (vendor, product, contact) and the same qualifiers.
 */
export const FROM_DATA_ITEM = 0.9
/**
 * The product a questionnaire is about is the questionnaire's, not the organisation's: a product
 * name from a data item is checked by the reviewer (never High).
 */
export const PRODUCT_FROM_DATA_ITEM = 0.7
/** Today's date for a date field: right when the questionnaire is sent the day it is answered. */
export const TODAY_CONFIDENCE = 0.7

export const TODAY_REASON =
  'Today’s date, the day this questionnaire was answered: change it if it is submitted on another day.'
/** Why a field is filled from a data item, for the reviewer. */
export const fromDataItem = (title: string, subject: Subject) =>
  `From your data item “${title}”${subject === 'product' ? ': check that this questionnaire is about this product before approving' : ''}.`
export const SEVERAL_DATA_ITEMS =
  'Several of your data items could fill this field: choose the one for this submission.'

/** The note of a field no data item holds: it is left for the person to fill in. */
export const leftToFill = (label: string) =>
  `Left for you to fill in: “${label.trim()}” describes this submission, and none of your data items holds it. Add it as a data item to have it filled in from now on.`

/**
 * The answer to a field that describes the submission: from the data item that holds it, a date
 * from `asOf` (the day answered), or nothing with a note. Another questionnaire's answer to the
 * same field is never used, not even as a candidate (`_others` is ignored: it describes that
 * submission, and its contact, product or date are often not this one's).
 */
export function submissionAnswer(
  question: QuestionInput,
  field: SubmissionField,
  data: PassageHit[],
): EngineAnswer {
  if (field.head === 'date') {
    const today = (question.asOf ?? new Date()).toISOString().slice(0, 10)
    const candidate = { text: today, choice: null, confidence: TODAY_CONFIDENCE, citations: [] }
    return { candidates: [{ ...candidate, reason: TODAY_REASON }], note: null }
  }
  const items = holding(field, data).filter(
    (item, index, all) => all.findIndex((other) => itemValue(other) === itemValue(item)) === index,
  )
  const fromData = items.map((item) => ({
    text: itemValue(item),
    choice: null,
    confidence:
      items.length > 1
        ? 0.5
        : field.subject === 'product'
          ? PRODUCT_FROM_DATA_ITEM
          : FROM_DATA_ITEM,
    citations: [passageCitation(item, item.text)],
    reason: fromDataItem(item.title, field.subject),
  }))
  if (fromData.length > 1) {
    const lead = { text: '', choice: null, confidence: 0 }
    const withheld = { ...lead, citations: fromData.flatMap((c) => c.citations) }
    return {
      candidates: [{ ...withheld, withheld: SEVERAL_DATA_ITEMS }, ...fromData],
      note: null,
    }
  }
  if (fromData.length) return { candidates: fromData, note: null }
  return { candidates: [], note: leftToFill(question.text) }
}

/** Whether a label asks for the product's name ('Product Name', 'Name of Product/Service'). */
export function isProductNameField(label: string): boolean {
  const field = submissionField({ text: label, vocabulary: null })
  return field?.subject === 'product' && field.head === 'name' && !field.qualifiers.length
}
