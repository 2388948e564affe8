/** Settings' sections (issue 30): each with its own address, /settings/{key}. */

export const SETTINGS_SECTIONS = [
  { key: 'notifications', label: 'Notifications', admin: false },
  { key: 'organization', label: 'Organisation', admin: true },
  { key: 'people', label: 'People and roles', admin: false },
  { key: 'products', label: 'Products', admin: false },
  { key: 'sso', label: 'Single sign-on', admin: true },
  { key: 'plan', label: 'Plan', admin: false },
  { key: 'audit', label: 'Audit log', admin: true },
] as const

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['key']

/** The sections a person sees: admins all of them, others what concerns them. */
export const sectionsFor = (admin: boolean) =>
  SETTINGS_SECTIONS.filter((section) => admin || !section.admin)

/** The section an address names, or the first one the person sees. */
export function sectionOf(key: string | undefined, admin: boolean): SettingsSection {
  const visible = sectionsFor(admin)
  return (visible.find((section) => section.key === key) ?? SETTINGS_SECTIONS[0]).key
}
