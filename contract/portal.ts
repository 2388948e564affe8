import * as z from 'zod/mini'
import { citationSchema } from './answers.ts'

/**
 * Questionnaires that arrive as web forms (issue 42): the extension's reader lists a portal
 * page's question fields, Quire keeps them as a questionnaire of kind `portal` (found again by
 * the page's address) and drafts each; the extension fills what the person confirms.
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

/** Up to this many fields are read from one page. */
export const MAX_PORTAL_FIELDS = 2_000

/** A question field as the reader found it: only its words, kind, options and what it holds. */
export const portalFieldSchema = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(300)),
  question: z.string().check(z.minLength(1), z.maxLength(4_000)),
  kind: z.enum(PORTAL_FIELD_KINDS),
  options: z._default(z.array(z.string().check(z.maxLength(500))).check(z.maxLength(200)), []),
  value: z._default(z.string().check(z.maxLength(20_000)), ''),
})
export type PortalField = z.infer<typeof portalFieldSchema>

export const portalReadRequestSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).check(z.maxLength(2_000)),
  title: z._default(z.string().check(z.maxLength(300)), ''),
  fields: z.array(portalFieldSchema).check(z.minLength(1), z.maxLength(MAX_PORTAL_FIELDS)),
  /**
   * The questionnaire the panel is already filling (a wizard's next page at another address);
   * without it the page's address finds it.
   */
  questionnaire_id: z.optional(z.int().check(z.positive())),
})
export type PortalReadRequest = z.infer<typeof portalReadRequestSchema>

export const PORTAL_ANSWER_STATUSES = [
  'pending',
  'generated',
  'edited',
  'approved',
  'no_answer',
  'failed',
] as const

/** A field's draft: what the extension fills (the option for a choice), its band and sources. */
export const portalAnswerSchema = z.object({
  key: z.string(),
  question_id: z.int(),
  answer_id: z.int(),
  text: z.string(),
  choice: z.nullable(z.string()),
  /** For a select, radio or checkbox field: the one option the answer names. */
  option: z.optional(z.nullable(z.string())),
  confidence: z.nullable(z.number()),
  band: z.nullable(z.enum(['high', 'medium', 'low'])),
  citations: z.array(citationSchema),
  status: z.string(),
  note: z.nullable(z.string()),
  /** Bumped by every change of the answer: tells the panel what changed since its last read. */
  version: z.int(),
})
export type PortalAnswer = z.infer<typeof portalAnswerSchema>

export const portalReadResponseSchema = z.object({
  questionnaire_id: z.int(),
  name: z.string(),
  url: z.string(),
  /** How many of the fields were new to the questionnaire, and how many were reworded. */
  added: z.int(),
  changed: z.int(),
  answers: z.array(portalAnswerSchema),
})
export type PortalReadResponse = z.infer<typeof portalReadResponseSchema>

/** What the extension filled (recorded in the questionnaire's history). */
export const portalFilledRequestSchema = z.object({
  questionnaire_id: z.int().check(z.positive()),
  fills: z
    .array(
      z.object({
        key: z.string().check(z.minLength(1), z.maxLength(300)),
        answer_id: z.int().check(z.positive()),
        overwrote: z._default(z.boolean(), false),
      }),
    )
    .check(z.minLength(1), z.maxLength(MAX_PORTAL_FIELDS)),
})
export type PortalFilledRequest = z.infer<typeof portalFilledRequestSchema>
export const portalFilledResponseSchema = z.object({ recorded: z.int() })

export const PORTAL_TEXTS = {
  noFields: 'No question fields were found on this page.',
  notPortal: 'This questionnaire was not read from a web portal.',
  busy: 'Quire is still drafting this questionnaire. Try again in a moment.',
  unknownAnswer: 'One of the filled answers is not part of this questionnaire.',
  readAgain:
    'This questionnaire was read from a web portal: open the portal page and choose “Read this page” in Quire’s extension to read it again.',
  noFile: 'This questionnaire was read from a web portal: there is no file to download.',
} as const

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
