import { Link, useParams } from '@tanstack/react-router'
import { css, cx } from 'styled-system/css'
import { can, ROLE_TEXTS, ROLES } from '../../../contract/roles.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import type { ApiKeysLogic, WebhooksLogic } from '../../api/platform-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { card, focusRing, muted } from '../../components/styles.ts'
import { ApiKeysSection } from './api-keys-section.tsx'
import { type AuditLogic, AuditSection, useAuditLog } from './audit-section.tsx'
import { type NotificationsLogic, NotificationsSection } from './notifications-section.tsx'
import { type OrganizationLogic, OrganizationSection } from './organization-section.tsx'
import { type PeopleLogic, PeopleSection } from './people-section.tsx'
import { type PlanLogic, PlanSection } from './plan-section.tsx'
import { type ProductsLogic, ProductsSection } from './products-section.tsx'
import { type SettingsSection, sectionOf, sectionsFor } from './settings-sections.ts'
import { type SsoLogic, SsoSection } from './sso-section.tsx'
import { type TrustLogic, TrustSection } from './trust/trust-section.tsx'
import { WebhooksSection } from './webhooks-section.tsx'

const layout = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: '12rem minmax(0, 1fr)' },
  gap: { base: '5', md: '10' },
  alignItems: 'start',
})
// on a phone the sections wrap onto a few lines: every one, the current one too, in sight
const nav = css({
  display: 'flex',
  flexDirection: { base: 'row', md: 'column' },
  flexWrap: { base: 'wrap', md: 'nowrap' },
  gap: '1',
  position: { md: 'sticky' },
  top: { md: '20' },
})
const navLink = cx(
  css({
    flexShrink: 0,
    px: '3',
    py: '2',
    borderRadius: 'l2',
    textStyle: 'sm',
    fontWeight: 'medium',
    color: 'fg.muted',
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    _hover: { bg: 'gray.a3', color: 'fg.default' },
    '&[aria-current=page]': { bg: 'colorPalette.a3', color: 'colorPalette.text' },
  }),
  focusRing,
)
const content = css({ display: 'flex', flexDirection: 'column', gap: '8', minW: '0' })
const roles = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '3',
  mt: '3',
})
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted' })

export interface SettingsLogic {
  people?: PeopleLogic
  organization?: OrganizationLogic
  audit?: AuditLogic
  plan?: PlanLogic
  sso?: SsoLogic
  notifications?: NotificationsLogic
  products?: ProductsLogic
  trust?: TrustLogic
  apiKeys?: ApiKeysLogic
  webhooks?: WebhooksLogic
}

/**
 * /settings and /settings/{section} (issue 30): one section at a time, each with its address,
 * chosen from the list beside it (above it on a phone). Admins see every section; others their
 * notifications, their role among the roles, and the plan.
 */
export default function SettingsPage(props: SettingsLogic & { section?: string }) {
  const params: { section?: string } = useParams({ strict: false })
  const profile = SessionContext.useSelector(selectProfile)
  const role = profile?.user.role ?? null
  const admin = role !== null && can(role, 'organization.manage')
  const curator = role !== null && can(role, 'library.manage')
  const current = sectionOf(props.section ?? params.section, admin, curator)
  return (
    <div className={layout}>
      <nav className={nav} aria-label="Settings">
        {sectionsFor(admin, curator).map((section) => (
          <Link
            key={section.key}
            to="/settings/$section"
            params={{ section: section.key }}
            className={navLink}
            aria-current={section.key === current ? 'page' : undefined}
          >
            {section.label}
          </Link>
        ))}
      </nav>
      <div className={content}>
        <Section {...props} section={current} admin={admin} selfId={profile?.user.id ?? null} />
      </div>
    </div>
  )
}

function Section(
  props: SettingsLogic & { section: SettingsSection; admin: boolean; selfId: number | null },
) {
  const profile = SessionContext.useSelector(selectProfile)
  const role = profile?.user.role ?? null
  switch (props.section) {
    case 'notifications':
      return <NotificationsSection logic={props.notifications} admin={props.admin} />
    case 'organization':
      return <OrganizationSection logic={props.organization} />
    case 'sso':
      return <SsoSection logic={props.sso} />
    case 'products':
      return (
        <ProductsSection
          logic={props.products}
          canManage={role !== null && can(role, 'library.manage')}
        />
      )
    case 'webhooks':
      return <WebhooksSection logic={props.webhooks} />
    case 'api-keys':
      return <ApiKeysSection logic={props.apiKeys} />
    case 'trust':
      return (
        <TrustSection
          logic={props.trust}
          admin={props.admin}
          organizationName={profile?.organization.name ?? ''}
        />
      )
    case 'plan':
      return <PlanSection logic={props.plan} canChange={props.admin} />
    case 'audit':
      return <Audit logic={props.audit} />
    default:
      return (
        <>
          {props.admin ? (
            <PeopleSection logic={props.people} selfId={props.selfId} />
          ) : (
            <p className={intro}>
              {role
                ? `You are ${/^[aeiou]/i.test(ROLE_TEXTS[role].name) ? 'an' : 'a'} ${ROLE_TEXTS[role].name.toLowerCase()} of ${profile?.organization.name}. Your admins manage people and roles.`
                : 'Loading your profile...'}
            </p>
          )}
          <section aria-labelledby="roles-heading">
            <h2 id="roles-heading" className={heading}>
              Roles
            </h2>
            <ul className={roles}>
              {ROLES.map((name) => (
                <li key={name} className={card}>
                  <p className={css({ fontWeight: 'semibold' })}>
                    {ROLE_TEXTS[name].name}
                    {name === role && <span className={muted}> (your role)</span>}
                  </p>
                  <p className={css({ color: 'fg.muted', mt: '1' })}>{ROLE_TEXTS[name].summary}</p>
                </li>
              ))}
            </ul>
          </section>
        </>
      )
  }
}

/** The audit log, read when its section opens (so it holds the changes made in the others). */
function Audit(props: { logic?: AuditLogic }) {
  const audit = useAuditLog(props.logic)
  return <AuditSection audit={audit} />
}
