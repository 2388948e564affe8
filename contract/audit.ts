import { ROLE_TEXTS, type Role } from './roles.ts'

/**
 * The audit log in words (issue 30): each action as a short label and as a sentence, shared by
 * Settings and the log's download so that both read alike ('Ana Admin uploaded policy.pdf').
 * In a sentence, {actor} is who acted, {name} the object by the name it had at the time
 * (detail.name), {summary} the questionnaire activity's own line, and any other {key} the
 * detail's value (or its `after`'s).
 */

export interface AuditAction {
  label: string
  sentence: string
}

const action = (label: string, sentence: string): AuditAction => ({ label, sentence })

export const AUDIT_ACTIONS: Record<string, AuditAction> = {
  'api_key.created': action('API key created', '{actor} created the API key {name}'),
  'api_key.revoked': action('API key revoked', '{actor} revoked the API key {name}'),
  'api_key.refused': action('API key refused', 'The API key {name} was refused: {reason}'),
  'user.invited': action('Invited', '{actor} invited {name} as {role}'),
  'user.reinvited': action('Invited again', '{actor} invited {name} again, as {role}'),
  'user.updated': action('Renamed', '{actor} renamed {name}'),
  'user.role_changed': action('Role changed', '{actor} changed the role of {name} to {role}'),
  'user.removed': action('Removed', '{actor} removed {name}'),
  'user.magic_link_sent': action('Sign-in link sent', '{actor} sent a sign-in link to {name}'),
  'user.temporary_password': action(
    'Temporary password set',
    '{actor} set a temporary password for {name}',
  ),
  'user.join_requested': action('Asked to join', '{actor} asked to join the organisation'),
  'user.join_approved': action('Join approved', '{actor} let {name} join as {role}'),
  'user.join_rejected': action('Join refused', '{actor} refused the request of {name} to join'),
  'user.created_by_sso': action(
    'Joined through single sign-on',
    'Single sign-on created an account for {email}',
  ),
  'organization.updated': action(
    'Organisation settings changed',
    '{actor} changed the organisation’s settings ({name})',
  ),
  'organization.logo_changed': action('Logo changed', '{actor} changed the logo'),
  'organization.logo_removed': action('Logo removed', '{actor} removed the logo'),
  'organization.domain_dns_verified': action(
    'Domain proved by DNS',
    '{actor} proved {domain} by DNS',
  ),
  'organization.domain_lost': action('Domain lost', 'The organisation lost {domain}: {reason}'),
  'sso.updated': action('Single sign-on changed', '{actor} changed the single sign-on settings'),
  'license.changed': action('Plan changed', 'The plan changed to {tier}'),
  'authorization.denied': action('Call refused for the role', '{actor} was refused {name}'),
  'file.uploaded': action('File uploaded', '{actor} uploaded {name}'),
  'file.link_added': action('Link added', '{actor} added the page {name}'),
  'file.version_added': action('New version', '{actor} uploaded a new version of {name}'),
  'file.deleted': action('File deleted', '{actor} deleted {name}'),
  'file.downloaded': action('File downloaded', '{actor} downloaded {name}'),
  'qa.created': action('Library answer added', '{actor} added the library answer “{name}”'),
  'qa.updated': action('Library answer edited', '{actor} edited the library answer “{name}”'),
  'qa.deleted': action('Library answer deleted', '{actor} deleted the library answer “{name}”'),
  'qa.reviewed': action(
    'Library answer confirmed',
    '{actor} confirmed the library answer “{name}” is still true',
  ),
  'qa.imported': action(
    'Library answers imported',
    '{actor} imported {name} into the library ({created} added, {updated} updated)',
  ),
  'qa.saved_from_answer': action(
    'Library answer from a questionnaire',
    '{actor} saved the answer to “{name}” to the library',
  ),
  'product.created': action('Product added', '{actor} added the product {name}'),
  'product.updated': action('Product edited', '{actor} edited the product {name}'),
  'product.deleted': action('Product deleted', '{actor} deleted the product {name}'),
  'product.assigned': action(
    'Product set',
    '{actor} set the product of {count} files, library answers or questionnaires to {name}',
  ),
  'data.created': action('Data item added', '{actor} added the data item {name}'),
  'data.updated': action('Data item edited', '{actor} edited the data item {name}'),
  'data.deleted': action('Data item deleted', '{actor} deleted the data item {name}'),
  'questionnaire.uploaded': action('Questionnaire uploaded', '{actor} uploaded {name}'),
  'questionnaire.portal_read': action('Portal page read', '{actor} {summary} in {name}'),
  'questionnaire.portal_filled': action('Portal answers filled', '{actor} {summary} in {name}'),
  'questionnaire.deleted': action('Questionnaire deleted', '{actor} deleted {name}'),
  'questionnaire.downloaded': action(
    'Questionnaire downloaded',
    '{actor} downloaded the original of {name}',
  ),
  'questionnaire.filled_file_downloaded': action(
    'Filled file downloaded',
    '{actor} downloaded {file}, the filled file of {name}',
  ),
  'questionnaire.unapproved': action('Approval withdrawn', '{actor} {summary} in {name}'),
  'questionnaire.approved': action('Answer approved', '{actor} {summary} in {name}'),
  'questionnaire.exported': action('Filled file exported', '{actor} {summary} from {name}'),
  'questionnaire.assigned': action('Question assigned', '{actor} {summary} in {name}'),
  'questionnaire.unassigned': action('Assignment removed', '{actor} {summary} in {name}'),
  'questionnaire.answered': action('Answer written', '{actor} {summary} in {name}'),
  'questionnaire.ready': action('Ready for review', '{actor} {summary} in {name}'),
  'questionnaire.changes_requested': action('Changes requested', '{actor} {summary} in {name}'),
  'questionnaire.commented': action('Commented', '{actor} {summary} in {name}'),
  'questionnaire.work': action('Questionnaire work', '{actor} {summary} in {name}'),
}

/** The log's filter, by the start of an action. */
export const AUDIT_GROUPS: [string, string][] = [
  ['', 'All actions'],
  ['user.', 'People'],
  ['organization.', 'Organisation'],
  ['sso.', 'Single sign-on'],
  ['license.', 'Plan'],
  ['file.', 'Repository'],
  ['qa.', 'Library'],
  ['data.', 'Data items'],
  ['product.', 'Products'],
  ['questionnaire.', 'Questionnaires'],
  ['authorization.', 'Refused calls'],
]

/** The longest object name kept (a question's text is cut here). */
export const AUDIT_NAME_MAX = 120

/** A name as the log keeps it: one line, at most AUDIT_NAME_MAX characters. */
export function auditName(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > AUDIT_NAME_MAX ? `${line.slice(0, AUDIT_NAME_MAX - 1)}…` : line
}

/** What a sentence needs of an entry. */
export interface AuditEntryWords {
  action: string
  actor: { email: string; name: string } | null
  /** The object's name (null: only its target, such as 'user:12', is known). */
  object: string | null
  target: string | null
  detail: Record<string, unknown>
}

export const auditLabel = (action: string) => AUDIT_ACTIONS[action]?.label ?? action

const text = (value: unknown) => {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'string' && value in ROLE_TEXTS) return ROLE_TEXTS[value as Role].name
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The entry as one sentence: 'Ana Admin changed the role of bob@acme.test to Approver'. */
export function auditSentence(entry: AuditEntryWords): string {
  const template = AUDIT_ACTIONS[entry.action]?.sentence ?? `{actor}: ${entry.action} {name}`
  const after = (entry.detail.after ?? {}) as Record<string, unknown>
  const summary = typeof entry.detail.summary === 'string' ? entry.detail.summary : ''
  const words = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (key === 'actor') return entry.actor ? entry.actor.name || entry.actor.email : 'Quire'
    if (key === 'name') return entry.object ?? entry.target ?? 'something'
    if (key === 'summary') return summary.charAt(0).toLowerCase() + summary.slice(1)
    return text(entry.detail[key]) ?? text(after[key]) ?? '?'
  })
  return words.replace(/\s+/g, ' ').trim()
}
