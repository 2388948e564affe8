import { citationsOf } from './cite.ts'
import { leadingChoice } from './text.ts'
import type { Candidate, EngineAnswer, LibraryEntry, PassageHit } from './types.ts'

/**
 * Kind `other_product` (issue 38): an answer from a library entry that speaks for another of the
 * organisation's products than the one the questionnaire is for. A sister product's practice is
 * often the same, so the answer is offered, but never High (a Yes/No at most OTHER_PRODUCT_CAP,
 * a free text OTHER_PRODUCT_TEXT_CAP, whatever calibration says) and its note names both products. What belongs to one product alone (what it
 * is, its history, where it is hosted and its data kept, the data it handles, its certifications
 * and reports, accessibility, integrations, sub-processors, contacts) is never carried from
 * another product: such a question gets no answer from that entry.
 *
 * Entries of the questionnaire's own product, and company-wide entries (no product), answer as
 * before; so does everything when the questionnaire names no product.
 */

/**
 * The highest confidence of a Yes, No or N/A from another product's entry: Medium at most (a
 * sister product's Yes/No answers were right 0.89 to 0.94 of the time: a Canvas Studio HECVAT
 * Lite answering Canvas Catalog's, 53 answers right 0.943; issue 38's report, 0.89).
 */
export const OTHER_PRODUCT_CAP = 0.79
/**
 * ... and of a free-text answer: Low (a sister product's own words held for the other product
 * about 3 times in 10, issue 38's hand judgement).
 */
export const OTHER_PRODUCT_TEXT_CAP = 0.45

/** The ceiling of an answer that rests on another product's entries or documents. */
export const otherProductCeiling = (candidate: Candidate) =>
  candidate.choice || leadingChoice(candidate.text) ? OTHER_PRODUCT_CAP : OTHER_PRODUCT_TEXT_CAP

/** 'From Studio’s answers: check it holds for Catalog before approving.' */
export const otherProductNote = (other: string, own: string) =>
  `From ${other}’s answers: check it holds for ${own} before approving.`

const OTHER_PRODUCT_NOTE = /^From .+’s answers: check it holds for /

/** Whether an answer's note says it rests on another product's entry. */
export const isOtherProductNote = (reason: string | null | undefined) =>
  Boolean(reason && OTHER_PRODUCT_NOTE.test(reason))

/**
 * Questions about facts that belong to one product: what it is, its history, where it runs and
 * keeps data, the data it handles, its certifications, reports and accessibility, what it
 * integrates with, its sub-processors and its people to contact. Read from the question's own
 * words, by topic: a practice ('Do you encrypt data at rest?') is none of these.
 */
const PRODUCT_FACTS: RegExp[] = [
  // what it is
  /\b(describe|description|overview|summary|purpose)\b.{0,40}\b(product|service|solution|application|platform|offering|software|system)\b/,
  /\bwhat (does|is) (the|your) (product|service|solution|application|platform|software)\b/,
  /\b(product|service|solution|application|platform|offering|software) (description|overview|summary)\b/,
  /\b(business background|ownership structure|parent (company|organi[sz]ation))\b/,
  /\b(link|url) to (the |your )?product\b/,
  // its history
  /\b(history|founded|founding|year (established|founded)|years in (business|operation))\b/,
  /\b(outages?|disruptions?|downtime|breach(es)?)\b.{0,60}\b(last|past) (\d+|twelve|six) (months|years)\b/,
  // where it runs and keeps data
  /\b(where|which|what)\b.{0,60}\b(hosted|hosting|data cent(er|re)s?|regions?|countr(y|ies)|located|stored|reside)\b/,
  /\bdata (residency|location|sovereignty|cent(er|re)s?)\b/,
  /\bhosting (provider|environment|locations?|model|regions?|countr(y|ies)|sites?)\b/,
  // where its people work
  /\b(work|office|business) locations?\b/,
  /\b(where|which countries|what countries)\b.{0,40}\boffices?\b/,
  // the data it handles
  /\b(what|which) (types?|kinds?|categories|classes) of (data|information)\b/,
  /\b(types?|kinds?|categories|classes) of (data|information) (does|do|will|would|is|are)\b/,
  /\b(process|store|collect|handle|receive|transmit)\w* (protected health information|phi)\b/,
  // certifications, reports, accessibility
  /\b(soc ?[123]|iso\/?(iec)? ?27\d{3}|hitrust|fedramp|stateramp|pci[ -]dss|certifi(ed|cations?)|attestations?|audit reports?|vpat|wcag|section 508|accessib\w*)\b/,
  // what it integrates with
  /\b(integrates? with|integrations?\b(?! of)|lti|plug-?ins?|connectors?|third[- ]party (apps|applications|tools))\b/,
  // sub-processors
  /\b(sub-?processors?|subcontractors?|fourth[- ]part(y|ies))\b/,
  // people to contact
  /\b(contact (name|person|title|details|information|e-?mail|phone|telephone|number)|primary contact|point of contact)\b/,
]

export const isProductFact = (question: string) => {
  const text = question.toLowerCase()
  return PRODUCT_FACTS.some((pattern) => pattern.test(text))
}

/**
 * A library answer as the questionnaire's product may use it: as it is from its own product or a
 * company-wide entry; from another product, capped and named (kind other_product), or none at all
 * for a fact that belongs to one product.
 */
export function forProduct(
  candidate: Candidate | null,
  entry: LibraryEntry,
  question: { text: string },
): Candidate | null {
  const other = entry.otherProduct
  if (!candidate || !other) return candidate
  if (isProductFact(question.text)) return null
  return {
    ...candidate,
    // a reason the answer already has (stale, transferred) names its kind: this one comes first
    reason: otherProductNote(other.name, other.forProduct),
    // the match keeps its score (the engine chooses by it); its ceiling holds the shown confidence
    ceiling: Math.min(candidate.ceiling ?? 1, otherProductCeiling(candidate)),
  }
}

/**
 * 'No answer: Studio’s answers hold this, but it is Studio’s alone (cited as a lead): write
 * Catalog’s own.'
 */
export const otherProductFactNote = (other: string, own: string) =>
  `No answer: ${other}’s answers hold this, but it is ${other}’s alone (cited as a lead): write ${own}’s own.`

/**
 * A fact of one product that only another product's entries hold: no answer, that entry cited as
 * the lead a reviewer starts from (issue 38: a sister product's description, hosting regions and
 * offices were served as this one's).
 */
export function otherProductFactLead(
  question: { text: string },
  matches: { entry: LibraryEntry; score: number }[],
): Candidate | null {
  if (!isProductFact(question.text)) return null
  const match = matches.find(({ entry }) => entry.otherProduct)
  const other = match?.entry.otherProduct
  if (!match || !other) return null
  return {
    text: '',
    choice: null,
    confidence: 0,
    citations: citationsOf(match.entry),
    withheld: otherProductFactNote(other.name, other.forProduct),
  }
}

/** The questionnaire's product, and the repository files that speak for other products. */
export interface ProductScope {
  forProduct: string
  /** File id → the name of the product it speaks for. */
  otherFiles: Map<number, string>
}

const ofOtherProduct = (hit: PassageHit, scope: ProductScope) =>
  hit.source === 'file' && hit.fileId !== null && scope.otherFiles.has(hit.fileId)

/** The passages a question may be answered from: for a fact of one product, none of another's. */
export function passagesForProduct(
  question: { text: string },
  passages: PassageHit[],
  scope: ProductScope | null,
): PassageHit[] {
  if (!scope || !isProductFact(question.text)) return passages
  return passages.filter((hit) => !ofOtherProduct(hit, scope))
}

/**
 * An answer whose document sentences all come from another product's files: that product's,
 * named, never High (as an answer from its library entries). One sentence of the questionnaire's
 * own product or of a company-wide document and the answer stands as it is.
 */
export function documentsForProduct(
  answer: EngineAnswer,
  scope: ProductScope | null,
): EngineAnswer {
  if (!scope) return answer
  const candidates = answer.candidates.map((candidate) => {
    if (candidate.withheld || isOtherProductNote(candidate.reason)) return candidate
    const documents = candidate.citations.filter(
      (citation) => citation.kind === 'document' && citation.source === 'file',
    )
    if (!documents.length) return candidate
    const products = documents.map((citation) => scope.otherFiles.get(citation.id ?? -1))
    const other = products[0]
    if (!other || products.some((name) => !name)) return candidate
    return {
      ...candidate,
      reason: otherProductNote(other, scope.forProduct),
      confidence: Math.min(candidate.confidence, otherProductCeiling(candidate)),
      ceiling: Math.min(candidate.ceiling ?? 1, otherProductCeiling(candidate)),
    }
  })
  return { ...answer, candidates }
}
