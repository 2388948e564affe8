/**
 * What the portal reader and the server share without a schema library (issue 42): the field
 * kinds, the option an answer names, the value a field is filled with, and the address a portal
 * page is found again by. The reader injected into pages imports only this.
 */

export const PORTAL_FIELD_KINDS = [
  'text',
  'textarea',
  'select',
  'radio',
  'checkbox',
  'editable',
] as const
export type PortalFieldKind = (typeof PORTAL_FIELD_KINDS)[number]

/** Query parameters that only track a visit, never name a page. */
const TRACKING = /^(utm_|fbclid$|gclid$|mc_|_hs|ref$)/i

/**
 * The address a portal page is found again by: scheme, host, path and the query's naming
 * parameters (sorted), without the fragment, tracking parameters or a trailing slash.
 */
export function portalAddress(url: string): string {
  const parsed = new URL(url)
  const params = [...parsed.searchParams.entries()]
    .filter(([name]) => !TRACKING.test(name))
    .sort(([a], [b]) => a.localeCompare(b))
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : ''
  const pathname = parsed.pathname.replace(/\/+$/, '') || '/'
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${pathname}${query}`
}

const normal = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '')

const FAMILIES: Record<'yes' | 'no' | 'na', string[]> = {
  yes: ['yes', 'y', 'implemented', 'in place', 'compliant', 'fully compliant', 'true'],
  no: ['no', 'n', 'not implemented', 'not in place', 'non compliant', 'noncompliant', 'false'],
  na: ['na', 'n a', 'not applicable', 'does not apply'],
}

/** The yes / no / n-a family an answer starts with, or null. */
function familyOf(answer: string): 'yes' | 'no' | 'na' | null {
  const head = answer.trim().toLowerCase()
  if (/^(n\/a|n\.a\.|na|not applicable|does not apply)(?![a-z])/.test(head)) return 'na'
  if (/^(yes|y|true|implemented|in place|compliant|fully compliant)(?![a-z])/.test(head))
    return 'yes'
  if (/^(no|n|false|not implemented|not in place|non-compliant|not compliant)(?![a-z/])/.test(head))
    return 'no'
  return null
}

/**
 * The option an answer names, by index: the option with the answer's very words; else the one
 * option of the answer's yes / no / n-a family ('Yes, we encrypt…' → 'Implemented'); else
 * none (-1). Two options that could both be meant are never guessed between.
 */
export function optionFor(options: readonly string[], answer: string): number {
  const wanted = normal(answer)
  if (!wanted) return -1
  const exact = options.findIndex((option) => normal(option) === wanted)
  if (exact >= 0) return exact
  const family = familyOf(answer)
  if (!family) return -1
  const names = FAMILIES[family]
  const matches = options
    .map((option, index) => ({ index, family: familyOf(option), text: normal(option) }))
    .filter((option) => names.includes(option.text) || option.family === family)
  return matches.length === 1 ? (matches[0] as { index: number }).index : -1
}

/** Words before an option that deny it: 'we do not hold PCI DSS'. */
const DENIED = /\b(not|no|never|without|nor|neither)\b/

/**
 * The options of a checkbox group an answer names. A lone box (an agreement) is ticked by a Yes
 * or by its own words. An answer that lists options in their own words ('SOC 2 Type II, ISO/IEC
 * 27001 and PCI DSS') names those; otherwise an option of several words (or with a figure) that
 * the answer says whole, and does not deny just before, is named. A single common word (Other,
 * None, Email) is never taken from a sentence.
 */
export function optionsNamed(options: readonly string[], answer: string): string[] {
  const wanted = normal(answer)
  if (!wanted) return []
  const names = options.map(normal)
  if (options.length === 1)
    return familyOf(answer) === 'yes' || names[0] === wanted ? [options[0] as string] : []
  const pieces = answer
    .split(/[,;\n&]|\band\b|\bor\b/i)
    .map(normal)
    .filter(Boolean)
  if (pieces.length && pieces.every((piece) => names.includes(piece)))
    return options.filter((_, index) => pieces.includes(names[index] as string))
  const text = ` ${wanted} `
  return options.filter((_, index) => {
    const name = names[index] as string
    if (name.length < 4 || !(name.includes(' ') || /\d/.test(name))) return false
    const at = text.indexOf(` ${name} `)
    if (at < 0) return false
    const before = text.slice(0, at).trim().split(' ').slice(-5).join(' ')
    return !DENIED.test(before)
  })
}

/** What the extension puts in a field for an answer: the option of a choice, else the words. */
export function fillValue(
  field: { kind: PortalFieldKind },
  answer: { text: string; choice: string | null; option?: string | null },
): string | null {
  if (field.kind === 'select' || field.kind === 'radio' || field.kind === 'checkbox')
    return answer.option ?? null
  const words = answer.text.trim() || answer.choice || ''
  return words || null
}
