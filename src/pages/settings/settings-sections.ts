/** Settings' sections (issue 30): each with its own address, /settings/{key}. */

/** `admin`: admins only; `curator`: also those who curate the library (approvers). */
export const SETTINGS_SECTIONS = [
  { key: 'notifications', label: 'Notifications', admin: false, curator: false },
  { key: 'organization', label: 'Organisation', admin: true, curator: false },
  { key: 'people', label: 'People and roles', admin: false, curator: false },
  { key: 'products', label: 'Products', admin: false, curator: false },
  { key: 'trust', label: 'Trust centre', admin: true, curator: true },
  { key: 'sso', label: 'Single sign-on', admin: true, curator: false },
  { key: 'api-keys', label: 'API keys', admin: true, curator: false },
  { key: 'webhooks', label: 'Webhooks', admin: true, curator: false },
  { key: 'plan', label: 'Plan', admin: false, curator: false },
  { key: 'audit', label: 'Audit log', admin: true, curator: false },
] as const

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['key']

/** The sections a person sees: admins all of them, others what concerns them. */
export const sectionsFor = (admin: boolean, curator = false) =>
  SETTINGS_SECTIONS.filter((section) => admin || !section.admin || (curator && section.curator))

/** The section an address names, or the first one the person sees. */
export function sectionOf(
  key: string | undefined,
  admin: boolean,
  curator = false,
): SettingsSection {
  const visible = sectionsFor(admin, curator)
  return (visible.find((section) => section.key === key) ?? SETTINGS_SECTIONS[0]).key
}
