/**
 * Roles and what each may do, shared by the server (which checks every call) and the client
 * (which explains them in Settings and hides what a role cannot do).
 */

export const ROLES = ['admin', 'approver', 'contributor', 'viewer'] as const
export type Role = (typeof ROLES)[number]

/**
 * What an approver may do: every capability but the organisation's people and settings, which
 * are the admin's alone. A new capability goes here or after it, in CAPABILITIES, by choice.
 */
const APPROVER_CAPABILITIES = [
  /** Read everything of the organisation, search it and export or download it. */
  'read',
  /** Upload files and links to the repository, tag and reprocess them, add and edit knowledge items. */
  'repository.write',
  /** Delete anyone's files and knowledge items (without it: only one's own). */
  'repository.delete',
  /** Curate the library: save approved answers to it, resolve its duplicates and conflicts. */
  'library.manage',
  /** Upload questionnaires, generate, regenerate and edit answers, run section operations, undo. */
  'questionnaires.write',
  /** Delete anyone's questionnaires and questions (without it: only one's own questionnaires). */
  'questionnaires.delete',
  /** Approve and un-approve answers. */
  'answers.approve',
] as const

/** What a call needs. Reading and exporting is every role's. */
export const CAPABILITIES = [
  ...APPROVER_CAPABILITIES,
  /** Invite, approve, remove and change people; their roles, sign-in links and passwords. */
  'users.manage',
  /** The organisation's settings, and its audit log. */
  'organization.manage',
] as const
export type Capability = (typeof CAPABILITIES)[number]

export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  admin: CAPABILITIES,
  approver: APPROVER_CAPABILITIES,
  contributor: ['read', 'repository.write', 'questionnaires.write'],
  viewer: ['read'],
}

export const can = (role: Role, capability: Capability) =>
  ROLE_CAPABILITIES[role].includes(capability)

/** What each role is for, as Settings explains it. */
export const ROLE_TEXTS: Record<Role, { name: string; summary: string }> = {
  admin: {
    name: 'Admin',
    summary:
      'Everything: people and roles, the organisation’s settings and audit log, and all work.',
  },
  approver: {
    name: 'Approver',
    summary:
      'Manages the repository and the library, approves answers, and deletes any questionnaire or file.',
  },
  contributor: {
    name: 'Contributor',
    summary:
      'Uploads files and questionnaires, drafts and edits answers; cannot approve answers or delete others’ work.',
  },
  viewer: {
    name: 'Viewer',
    summary: 'Reads everything and exports questionnaires; changes nothing.',
  },
}
