import * as z from 'zod/mini'
import { citationSchema } from './answers.ts'
import { PORTAL_FIELD_KINDS } from './portal-options.ts'

/**
 * Questionnaires that arrive as web forms (issue 42): the extension's reader lists a portal
 * page's question fields, Quire keeps them as a questionnaire of kind `portal` (found again by
 * the page's address) and drafts each; the extension fills what the person confirms.
 */

export { PORTAL_FIELD_KINDS, type PortalFieldKind } from './portal-options.ts'

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

export { fillValue, optionFor, optionsNamed, portalAddress } from './portal-options.ts'
