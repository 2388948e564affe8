import { nameKey } from './party-names.ts'
import { submissionField } from './submission.ts'
import type { LibraryEntry, PassageHit } from './types.ts'

/** The organisation's own names, read from its library (issue 38): whose practice is whose. */

/**
 * The organisation's names as its own records give them: the library's vendor and product name
 * fields (a completed questionnaire's 'Vendor Name', 'Product Name') and its data items ('Company
 * name: Acme'), with any names handed in (the organisation's, its products').
 */
function knownNames(
  entries: readonly LibraryEntry[],
  data: readonly PassageHit[],
  given: readonly string[] = [],
): string[] {
  const names = new Set(given.map(nameKey).filter(Boolean))
  const isName = (label: string) => {
    const field = submissionField({ text: label, vocabulary: null })
    return field?.head === 'name' && field.subject !== 'contact' && !field.qualifiers.length
  }
  for (const entry of entries)
    if (entry.answer.trim() && entry.answer.length <= 80 && isName(entry.question))
      names.add(nameKey(entry.answer))
  for (const item of data) {
    const [title, ...value] = item.text.split(':')
    if (title && value.length && isName(title)) names.add(nameKey(value.join(':')))
  }
  names.delete('')
  return [...names]
}

/** The organisation's known names, by library (read once: every question of a job asks). */
const KNOWN = new WeakMap<object, string[]>()

/**
 * The names a library gives the organisation (none without a library): its fields and data items,
 * and its products (issue 38: the questionnaire's product and the others the library speaks for).
 */
export function ownNamesOf(
  library: {
    entries: readonly (LibraryEntry & { otherProduct?: { name: string } | null })[]
    data: readonly PassageHit[]
    productScope?: { forProduct: string; otherFiles: Map<number, string> } | null
    /** The organisation's registered name and its products' names and aliases. */
    ownNames?: readonly string[]
  } | null,
): string[] {
  if (!library) return []
  let known = KNOWN.get(library)
  if (!known) {
    const products = [
      ...(library.ownNames ?? []),
      ...(library.productScope ? [library.productScope.forProduct] : []),
      ...(library.productScope?.otherFiles.values() ?? []),
      ...library.entries.flatMap((entry) => entry.otherProduct?.name ?? []),
    ]
    known = knownNames(library.entries, library.data, products)
    KNOWN.set(library, known)
  }
  return known
}
