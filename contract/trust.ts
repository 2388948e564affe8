import * as z from 'zod/mini'
import { domainSchema } from './domains.ts'

/**
 * The trust centre (issue 40): a public page per organisation with its security posture, what it
 * chose to publish of its documents and approved answers, and (later slices) requests for what is
 * under NDA, reader sessions and an ask box answered from public items only.
 */

export const TRUST_SECTIONS = [
  'overview',
  'certifications',
  'practices',
  'subprocessors',
  'documents',
  'updates',
  'contact',
] as const
export type TrustSection = (typeof TRUST_SECTIONS)[number]

/** A repository file on the trust centre: not at all, for anyone, or on request under NDA. */
export const TRUST_VISIBILITIES = ['private', 'public', 'nda'] as const
export type TrustVisibility = (typeof TRUST_VISIBILITIES)[number]
/** A Q&A item is published or not. */
export const QA_TRUST_VISIBILITIES = ['private', 'public'] as const

export const TRUST_TEXTS = {
  notFound: 'This page is not available.',
  slugTaken: 'That page address is taken: choose another.',
  slugNeeded: 'Choose the page’s address before publishing it.',
  slug: 'A page address is 3 to 50 lowercase letters, digits or hyphens, starting and ending with a letter or digit.',
  ndaNotPublic: 'This document is shared on request, under NDA.',
  tooMany: 'Too many requests from this address: try again in a minute.',
  approverNote:
    'Your admins keep the page and decide who reads the documents under NDA; you choose what of the library is public.',
  /** The browser's own words, where a call failed without the server's reason. */
  pageReadFailed: 'The page could not be read.',
  figuresFailed: 'The figures could not be read.',
  contentFailed: 'What is public could not be read.',
  contentSaveFailed: 'The change could not be saved.',
  askEmpty: 'Ask a question',
  askFailed: 'The question could not be answered.',
} as const

export const trustSlugSchema = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.regex(/^[a-z0-9](?:[a-z0-9-]{1,48})[a-z0-9]$/, TRUST_TEXTS.slug),
  )

const text = (max: number, label: string) =>
  z.string().check(z.trim(), z.maxLength(max, `${label} is at most ${max} characters`))
const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD'))

export const certificationSchema = z.object({
  name: text(120, 'A certification’s name').check(z.minLength(1, 'Name the certification')),
  /** When it was issued or last audited. */
  date: z.optional(z.nullable(isoDay)),
  /** The report, a repository file (shown when that file is public or under NDA). */
  file_id: z.optional(z.nullable(z.int().check(z.positive()))),
})
export const subprocessorSchema = z.object({
  name: text(120, 'A sub-processor’s name').check(z.minLength(1, 'Name the sub-processor')),
  purpose: text(300, 'A purpose'),
  location: text(120, 'A location'),
})
export const trustUpdateSchema = z.object({
  date: isoDay,
  title: text(200, 'A title').check(z.minLength(1, 'Give the update a title')),
  body: text(5000, 'An update'),
})

/** POST trust/settings/ (admin): any of the fields; the others stay. */
export const trustSettingsUpdateSchema = z.object({
  published: z.optional(z.boolean()),
  slug: z.optional(trustSlugSchema),
  sections: z.optional(
    z
      .array(z.enum(TRUST_SECTIONS))
      .check(z.refine((list) => new Set(list).size === list.length, 'A section is listed once')),
  ),
  overview: z.optional(text(5000, 'The overview')),
  contact_email: z.optional(z.nullable(z.email('Enter the contact address as name@example.com'))),
  certifications: z.optional(z.array(certificationSchema).check(z.maxLength(30))),
  subprocessors: z.optional(z.array(subprocessorSchema).check(z.maxLength(200))),
  updates: z.optional(z.array(trustUpdateSchema).check(z.maxLength(100))),
  nda_text: z.optional(text(20_000, 'The NDA')),
  auto_approve_domains: z.optional(z.array(domainSchema).check(z.maxLength(50))),
  grant_days: z.optional(
    z
      .int()
      .check(
        z.minimum(1, 'Access lasts a day at least'),
        z.maximum(365, 'Access lasts a year at most'),
      ),
  ),
})
export type TrustSettingsUpdate = z.input<typeof trustSettingsUpdateSchema>

export const trustSettingsSchema = z.object({
  published: z.boolean(),
  slug: z.nullable(z.string()),
  sections: z.array(z.enum(TRUST_SECTIONS)),
  overview: z.string(),
  contact_email: z.nullable(z.string()),
  certifications: z.array(certificationSchema),
  subprocessors: z.array(subprocessorSchema),
  updates: z.array(trustUpdateSchema),
  nda_text: z.string(),
  /** Bumped each time the NDA's text changes; an acceptance names the version it accepted. */
  nda_version: z.int(),
  auto_approve_domains: z.array(z.string()),
  grant_days: z.int(),
  updated_at: z.nullable(z.string()),
})
export type TrustSettings = z.infer<typeof trustSettingsSchema>

/** A page never saved: unpublished, every section in order, an access grant of 30 days. */
export const DEFAULT_TRUST_SETTINGS: TrustSettings = {
  published: false,
  slug: null,
  sections: [...TRUST_SECTIONS],
  overview: '',
  contact_email: null,
  certifications: [],
  subprocessors: [],
  updates: [],
  nda_text: '',
  nda_version: 0,
  auto_approve_domains: [],
  grant_days: 30,
  updated_at: null,
}

/** POST files/{id}/trust/ (admin or approver). */
export const fileTrustSchema = z.object({ visibility: z.enum(TRUST_VISIBILITIES) })
/** POST knowledge-base/qa/{id}/trust/ (admin or approver). */
export const qaTrustSchema = z.object({ visibility: z.enum(QA_TRUST_VISIBILITIES) })

/** GET public/trust/{slug}/: the page's content, public items only. */
export const publicTrustPageSchema = z.object({
  slug: z.string(),
  organization: z.object({ name: z.string(), logo: z.boolean() }),
  sections: z.array(z.enum(TRUST_SECTIONS)),
  overview: z.string(),
  certifications: z.array(
    z.object({
      name: z.string(),
      date: z.nullable(z.string()),
      /** The report, when its file is on the page. */
      document_id: z.nullable(z.int()),
    }),
  ),
  practices: z.array(z.object({ id: z.int(), question: z.string(), answer: z.string() })),
  subprocessors: z.array(subprocessorSchema),
  documents: z.array(
    z.object({
      id: z.int(),
      name: z.string(),
      size: z.int(),
      visibility: z.enum(['public', 'nda']),
    }),
  ),
  updates: z.array(trustUpdateSchema),
  contact_email: z.nullable(z.string()),
  nda: z.object({ version: z.int(), text: z.string() }),
})
export type PublicTrustPage = z.infer<typeof publicTrustPageSchema>

/* ------------------------------------------------------------------ requests under NDA */

export const TRUST_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'revoked'] as const
export type TrustRequestStatus = (typeof TRUST_REQUEST_STATUSES)[number]

export const TRUST_REQUEST_TEXTS = {
  ndaRequired: 'Accept the NDA to request access.',
  ndaChanged: 'The NDA changed since this page was opened: read it again and accept it.',
  received: 'Thank you: your request was sent. You will get an email once it is approved.',
  approved: 'Your request was approved: the link to read the documents is in your email.',
  linkInvalid: 'This access link is invalid or was already used. Ask for access again.',
  sessionEnded: 'Your access has ended. Ask for access again.',
  notPending: 'Only a pending request can be approved or rejected.',
  notApproved: 'Only approved access can be revoked or extended.',
  /** Settings → Trust centre: what each decision did, and failures without the server's reason. */
  decidedApprove: 'Access approved: the link is on its way by email.',
  decidedReject: 'Request rejected.',
  decidedRevoke: 'Access revoked: the link and the reader’s session stop working now.',
  decidedExtend: 'Access extended.',
  requestsFailed: 'The requests could not be read.',
  decisionFailed: 'The decision could not be saved.',
} as const

const personText = (max: number, label: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `Enter your ${label}`),
      z.maxLength(max, `Your ${label} is at most ${max} characters`),
    )

/** POST public/trust/{slug}/requests/: who asks, why, and the NDA version they accepted. */
export const trustRequestCreateSchema = z.object({
  name: personText(120, 'name'),
  email: z.email('Enter your work email as name@company.com').check(z.maxLength(254)),
  company: personText(200, 'company'),
  reason: z.optional(
    z.string().check(z.trim(), z.maxLength(2000, 'Say why in 2,000 characters or fewer')),
  ),
  nda_accepted: z.literal(true, TRUST_REQUEST_TEXTS.ndaRequired),
  nda_version: z.int().check(z.minimum(0)),
})
export type TrustRequestCreate = z.input<typeof trustRequestCreateSchema>

export const trustRequestSchema = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  company: z.string(),
  reason: z.string(),
  status: z.enum(TRUST_REQUEST_STATUSES),
  nda_version: z.int(),
  nda_accepted_at: z.string(),
  /** Where the acceptance came from, as logged. */
  address: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
  created_at: z.string(),
  decided_at: z.nullable(z.string()),
  /** Until when approved access lasts. */
  expires_at: z.nullable(z.string()),
  downloads: z.int(),
})
export type TrustRequest = z.infer<typeof trustRequestSchema>
export const trustRequestListSchema = z.object({ results: z.array(trustRequestSchema) })

/** POST trust/requests/{id}/extend/ (and approve/): how many days access lasts from now. */
export const trustGrantSchema = z.object({
  days: z.optional(z.int().check(z.minimum(1), z.maximum(365))),
})

/** POST public/trust/{slug}/session/: the emailed one-time token for a reader session. */
export const trustSessionRequestSchema = z.object({
  token: z.string().check(z.minLength(10), z.maxLength(200)),
})
export const trustSessionSchema = z.object({
  access: z.string(),
  expires_at: z.string(),
  email: z.string(),
})

/* ----------------------------------------------------------------------------- ask box */

/** POST public/trust/{slug}/ask/: a visitor's question. */
export const trustAskSchema = z.object({
  question: z
    .string()
    .check(
      z.trim(),
      z.minLength(3, 'Ask a question'),
      z.maxLength(500, 'A question is at most 500 characters'),
    ),
})
export const trustAnswerSchema = z.object({
  answer: z.string(),
  citations: z.array(
    z.object({ title: z.string(), snippet: z.string(), document_id: z.nullable(z.int()) }),
  ),
  /** Whether the published material answered it (else the answer says whom to ask). */
  answered: z.boolean(),
})
export type TrustAnswer = z.infer<typeof trustAnswerSchema>

/* ------------------------------------------------------------------ the reader in a browser */

/** GET public/trust/{slug}/reader/: the reader session of this browser's cookie, or none. */
export const trustReaderSchema = z.object({
  reader: z.nullable(z.object({ email: z.string(), expires_at: z.string() })),
})
export type TrustReader = z.infer<typeof trustReaderSchema>

/* ------------------------------------------------------------------------- administration */

/** GET trust/items/: the repository's files and the approved Q&A items, each with its visibility. */
export const trustItemsSchema = z.object({
  files: z.array(
    z.object({
      id: z.int(),
      name: z.string(),
      size: z.int(),
      visibility: z.enum(TRUST_VISIBILITIES),
    }),
  ),
  qa: z.array(
    z.object({
      id: z.int(),
      question: z.string(),
      answer: z.string(),
      visibility: z.enum(QA_TRUST_VISIBILITIES),
    }),
  ),
})
export type TrustItems = z.infer<typeof trustItemsSchema>

/** GET trust/analytics/?days=N (1 to 365, 30 by default). */
export const trustAnalyticsQuerySchema = z.object({
  days: z.optional(
    z.coerce
      .number()
      .check(z.int(), z.minimum(1, 'At least a day'), z.maximum(365, 'At most a year')),
  ),
})
export const trustAnalyticsSchema = z.object({
  days: z.int(),
  /** One row per calendar day (UTC), oldest first, every day present (zeros where nothing). */
  series: z.array(
    z.object({
      day: z.string(),
      views: z.int(),
      requests: z.int(),
      approvals: z.int(),
      downloads: z.int(),
    }),
  ),
  totals: z.object({
    views: z.int(),
    requests: z.int(),
    approvals: z.int(),
    downloads: z.int(),
  }),
  /** Downloads per document in the period, most first. */
  documents: z.array(
    z.object({ id: z.int(), name: z.string(), downloads: z.int(), readers: z.int() }),
  ),
  /** Requests, approvals and downloads per requesting company in the period, most first. */
  companies: z.array(
    z.object({
      company: z.string(),
      requests: z.int(),
      approvals: z.int(),
      downloads: z.int(),
    }),
  ),
})
export type TrustAnalytics = z.infer<typeof trustAnalyticsSchema>
