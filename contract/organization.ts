import * as z from 'zod/mini'
import { domainSchema } from './domains.ts'
import { reviewCycleDaysSchema } from './freshness.ts'
import { paged } from './paging.ts'

/** The organisation's settings and its audit log, for its admins. */

export const ANSWER_TONES = ['neutral', 'formal', 'friendly'] as const
export const ANSWER_LENGTHS = ['brief', 'standard', 'detailed'] as const

export const organizationSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Email domains whose people may ask to join (an admin with an address there added each). */
  verified_domains: z.array(z.string()),
  /**
   * The verified domains also proved by a DNS TXT record: only these reach people without an
   * account through single sign-on (discovery, just-in-time creation).
   */
  dns_verified_domains: z.array(z.string()),
  answer_tone: z.enum(ANSWER_TONES),
  answer_length: z.enum(ANSWER_LENGTHS),
  /** When the logo last changed (null: none); GET admin/organization/logo/ serves it. */
  logo_updated_at: z.nullable(z.string()),
  /** Days a library answer stays fresh after its last review, unless the answer sets its own. */
  review_cycle_days: z.int(),
  /** Owners of library answers get a weekly email of those due for review. */
  review_digest: z.boolean(),
  /** Issue 39: filling the customer's file writes approved answers only, unless asked otherwise. */
  export_approved_only: z._default(z.boolean(), false),
})
export type Organization = z.infer<typeof organizationSchema>

/**
 * Verified domains an organisation may hold, however they are added (update_organization or a DNS
 * proof); past it both refuse in these words.
 */
export const MAX_VERIFIED_DOMAINS = 20
const TOO_MANY_DOMAINS = `An organisation has at most ${MAX_VERIFIED_DOMAINS} verified domains: remove one before adding another.`

/** POST admin/update_organization/: any of the fields; the others stay. */
export const organizationUpdateSchema = z.object({
  name: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Enter the organisation’s name'),
        z.maxLength(200, 'The name is at most 200 characters'),
      ),
  ),
  verified_domains: z.optional(
    z.array(domainSchema).check(z.maxLength(MAX_VERIFIED_DOMAINS, TOO_MANY_DOMAINS)),
  ),
  answer_tone: z.optional(z.enum(ANSWER_TONES)),
  answer_length: z.optional(z.enum(ANSWER_LENGTHS)),
  review_cycle_days: z.optional(reviewCycleDaysSchema),
  review_digest: z.optional(z.boolean()),
  export_approved_only: z.optional(z.boolean()),
})
export type OrganizationUpdate = z.input<typeof organizationUpdateSchema>

/** GET admin/organization/domains/dns-record/?domain=: the TXT record that proves a domain. */
export const domainQuerySchema = z.object({ domain: domainSchema })
export const dnsRecordSchema = z.object({
  domain: z.string(),
  type: z.literal('TXT'),
  /** Where the record goes: the domain itself. */
  name: z.string(),
  value: z.string(),
})
export type DnsRecord = z.infer<typeof dnsRecordSchema>

/** POST admin/organization/domains/verify-dns/ {domain}: reads the record; the organisation. */
export const verifyDnsSchema = z.object({ domain: domainSchema })

export const auditEventSchema = z.object({
  id: z.string(),
  action: z.string(),
  /** The action in words (contract/audit.ts). */
  label: z.string(),
  /** The entry as a sentence: 'Ana Admin uploaded policy.pdf'. */
  summary: z.string(),
  /** `name`: the person's name, or '' when they gave none. */
  actor: z.nullable(z.object({ id: z.number(), email: z.string(), name: z.string() })),
  /** The object by the name it had at the time (a file, a person's email, a question). */
  object: z.nullable(z.string()),
  target: z.nullable(z.string()),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
})
export type AuditEvent = z.infer<typeof auditEventSchema>
export const auditEventListSchema = paged(auditEventSchema)

/** GET admin/audit-log/ (and its CSV export): newest first, by action prefix and actor. */
export const auditQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
  action: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  actor: z.optional(z.coerce.number().check(z.int(), z.positive())),
})

export const ORGANIZATION_TEXTS = {
  /** {domain} is replaced. */
  domainNotYours:
    'You can add only a domain of a confirmed address of an admin of this organisation: {domain} is not one.',
  publicDomain: '{domain} is a public email provider: anyone can have an address there.',
  /** {domain} is replaced. */
  domainTaken: '{domain} is already verified by another organisation.',
  /** {domain} and {value} are replaced. */
  dnsNotFound:
    'No TXT record "{value}" was found at {domain}. DNS changes can take a few minutes to appear: try again shortly.',
  /** {domain} is replaced. */
  dnsUnreachable: 'The DNS records of {domain} could not be read just now. Please try again.',
  /** {domain} is replaced. */
  dnsTaken: '{domain} is already proved by DNS by another organisation.',
  tooManyDomains: TOO_MANY_DOMAINS,
  dnsVerified: 'Domain verified by DNS',
  /** Why a domain is proved by DNS, beside the field that starts it. */
  dnsWhy: 'Single sign-on lets in people who have no account yet only on domains proved by DNS.',
  /** {domain} is replaced. */
  dnsPublish:
    'Add this TXT record to the DNS of {domain} (at your domain registrar or DNS host), then check it.',
  dnsRecordFailed: 'The DNS record could not be prepared. Please try again.',
  dnsCheckFailed: 'The DNS record could not be checked. Please try again.',
  dnsBadge: 'DNS verified',
  mailboxBadge: 'Mailbox only',
  unsavedBadge: 'Not saved yet',
  copied: 'Copied',
  copyFailed: 'Copying did not work: select the value and copy it yourself.',
  logoType: 'The logo must be a PNG, JPEG or WebP image',
  logoTooLarge: 'The logo must be at most 512 KB',
  noLogo: 'The organisation has no logo',
  /** The browser's own words, where a call failed without the server's reason. */
  settingsLoadFailed: 'The settings could not be loaded.',
  settingsSaveFailed: 'The settings could not be saved.',
  logoChangeFailed: 'The logo could not be changed.',
  auditLoadFailed: 'The audit log could not be loaded.',
  auditDownloadFailed: 'The audit log could not be downloaded.',
} as const

/** The largest logo accepted. */
export const LOGO_MAX_BYTES = 512 * 1024
