import type { SnapshotFrom } from 'xstate'
import type { organizationSettingsMachine } from './organization-settings.machine.ts'

export * from './organization-settings.machine.ts'
export type * from './organization-settings.types.ts'

type Snapshot = SnapshotFrom<typeof organizationSettingsMachine>

/** What Settings → Organisation reads, through `useView`. */
export const organizationSettingsView = {
  form: (s: Snapshot) => s.context.form,
  domain: (s: Snapshot) => s.context.domain,
  loading: (s: Snapshot) => s.hasTag('loading'),
  saving: (s: Snapshot) => s.hasTag('busy'),
  /** A DNS check runs: saving waits for it. */
  checking: (s: Snapshot) => s.hasTag('dnsChecking'),
  failed: (s: Snapshot) => s.matches('failed'),
  error: (s: Snapshot) => s.context.error,
  changed: (s: Snapshot) =>
    s.context.saved !== null &&
    JSON.stringify(s.context.form) !==
      JSON.stringify({
        name: s.context.saved.name,
        answer_tone: s.context.saved.answer_tone,
        answer_length: s.context.saved.answer_length,
        verified_domains: s.context.saved.verified_domains,
        review_cycle_days: s.context.saved.review_cycle_days,
        review_digest: s.context.saved.review_digest,
        export_approved_only: s.context.saved.export_approved_only,
      }),
}

/** How a domain of the list is verified: by DNS, by an admin's mailbox only, or not saved yet. */
export type DomainProof = 'dns' | 'mailbox' | 'unsaved'

/** The domains of the form, each with how it is verified. */
export const selectDomainProofs = (s: Snapshot): { domain: string; proof: DomainProof }[] =>
  s.context.form.verified_domains.map((domain) => ({
    domain,
    proof: s.context.saved?.dns_verified_domains.includes(domain)
      ? 'dns'
      : s.context.saved?.verified_domains.includes(domain)
        ? 'mailbox'
        : 'unsaved',
  }))

/** What the DNS proof of a domain reads, through `useView`. */
export const dnsProofView = {
  /** The "Verify a domain by DNS" field. */
  field: (s: Snapshot) => s.context.dnsDomain,
  /** The domain whose record is asked for or shown; null when none is. */
  target: (s: Snapshot) => (s.matches({ ready: { dns: 'idle' } }) ? null : s.context.dnsTarget),
  loadingRecord: (s: Snapshot) => s.hasTag('dnsLoading'),
  record: (s: Snapshot) => s.context.record,
  checking: (s: Snapshot) => s.hasTag('dnsChecking'),
  /** A save runs: the check waits for it. */
  saving: (s: Snapshot) => s.hasTag('busy'),
  verified: (s: Snapshot) => s.matches({ ready: { dns: 'verified' } }),
  error: (s: Snapshot) => s.context.dnsError,
  copied: (s: Snapshot) => s.matches({ ready: { copy: 'copied' } }),
  copyFailed: (s: Snapshot) => s.matches({ ready: { copy: 'copyFailed' } }),
}
