import * as z from 'zod/mini'

/**
 * The instance's legal pages (issue 30): its terms of service and privacy policy, linked from
 * sign-in and registration. The operator of an instance gives their own (a link, or Markdown);
 * without them Quire shows a plain default that says who runs the instance.
 */

export const LEGAL_KINDS = ['terms', 'privacy'] as const
export type LegalKind = (typeof LEGAL_KINDS)[number]

export const LEGAL_TITLES: Record<LegalKind, string> = {
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
}

export const LEGAL_TEXTS = {
  loadFailed: 'This page could not be loaded.',
} as const

export const legalKindSchema = z.object({ kind: z.enum(LEGAL_KINDS) })

export const legalDocumentSchema = z.object({
  kind: z.enum(LEGAL_KINDS),
  title: z.string(),
  /** The operator's own page, when they publish it elsewhere: the browser goes there. */
  url: z.nullable(z.string()),
  /** The text, in Markdown: the operator's file, or the default. */
  markdown: z.string(),
  /** Who runs this instance. */
  operator: z.string(),
  /** Whether the text is the operator's own, or Quire's default. */
  custom: z.boolean(),
})
export type LegalDocument = z.infer<typeof legalDocumentSchema>
