import type { DnsRecord, Organization } from '../../contract/organization.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/**
 * - `loading`: the settings are read for the first time.
 * - `busy`: the settings are being saved.
 * - `dnsLoading`, `dnsChecking`: a domain's TXT record is asked for, or checked.
 */
export type OrganizationSettingsTags = 'loading' | 'busy' | 'dnsLoading' | 'dnsChecking'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type OrganizationSettingsEvents =
  | { type: 'edit'; change: Partial<OrganizationForm> }
  | { type: 'domain.type'; value: string }
  | { type: 'domain.add' }
  | { type: 'domain.remove'; domain: string }
  | { type: 'save' }
  | { type: 'reset' }
  | { type: 'retry' }
  | { type: 'dns.type'; value: string }
  /** Shows the TXT record of `domain`, or of the domain typed in the DNS field. */
  | { type: 'dns.show'; domain?: string }
  | { type: 'dns.check' }
  | { type: 'dns.copy' }
  | { type: 'dns.close' }

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

/** The form: the organisation's settings as edited, domains one per entry. */
export type OrganizationForm = Pick<
  Organization,
  | 'name'
  | 'answer_tone'
  | 'answer_length'
  | 'verified_domains'
  | 'review_cycle_days'
  | 'review_digest'
  | 'export_approved_only'
>

export interface OrganizationSettingsContext {
  saved: Organization | null
  form: OrganizationForm
  /** The domain being typed, added to the list on `domain.add`. */
  domain: string
  error: string | null
  /** The "Verify a domain by DNS" field. */
  dnsDomain: string
  /** The domain whose TXT record is asked for, shown and checked. */
  dnsTarget: string | null
  record: DnsRecord | null
  /** Why the record could not be read or the check failed (the server's text). */
  dnsError: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type OrganizationSettingsEmitted =
  /** The settings were saved: the page says so. */
  | { type: 'saved'; organization: Organization }
  /** A domain was proved by DNS: the organisation as the server now has it. */
  | { type: 'dnsVerified'; organization: Organization }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `copyNotice`: 'Copied' shows this long after the record's value was copied. */
export type OrganizationSettingsDelays = 'copyNotice'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface OrganizationSettingsSchema {
  context: OrganizationSettingsContext
  events: OrganizationSettingsEvents
  emitted: OrganizationSettingsEmitted
  tags: OrganizationSettingsTags
  delays: OrganizationSettingsDelays
}
