import { css } from 'styled-system/css'
import { can, ROLE_TEXTS, ROLES } from '../../../contract/roles.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { SessionContext } from '../../app/session.tsx'
import { card, muted } from '../../components/styles.ts'
import { PageHeader } from '../page-header.tsx'
import { type AuditLogic, AuditSection, useAuditLog } from './audit-section.tsx'
import { type NotificationsLogic, NotificationsSection } from './notifications-section.tsx'
import { type OrganizationLogic, OrganizationSection } from './organization-section.tsx'
import { type PeopleLogic, PeopleSection } from './people-section.tsx'
import { type PlanLogic, PlanSection } from './plan-section.tsx'
import { type SsoLogic, SsoSection } from './sso-section.tsx'

const sections = css({ display: 'flex', flexDirection: 'column', gap: '8' })
const roles = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '3',
  mt: '3',
})
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
// wraps on a phone (the organisation's name can be long)
const intro = css({ color: 'fg.muted' })

/** /settings: the organisation's people and what each role may do. */
export default function SettingsPage(props: {
  people?: PeopleLogic
  organization?: OrganizationLogic
  audit?: AuditLogic
  plan?: PlanLogic
  sso?: SsoLogic
  notifications?: NotificationsLogic
}) {
  const profile = SessionContext.useSelector(selectProfile)
  const role = profile?.user.role ?? null
  const admin = role !== null && can(role, 'organization.manage')
  return (
    <>
      <PageHeader description="Your organisation, its people and their roles, its plan, what its admins did, and how you are told of your work." />
      <div className={sections}>
        {admin ? (
          <>
            <NotificationsSection logic={props.notifications} />
            <AdminSections {...props} selfId={profile?.user.id ?? null} />
          </>
        ) : (
          <>
            <p className={intro}>
              {role
                ? `You are ${/^[aeiou]/i.test(ROLE_TEXTS[role].name) ? 'an' : 'a'} ${ROLE_TEXTS[role].name.toLowerCase()} of ${profile?.organization.name}. Your admins manage people and roles.`
                : 'Loading your profile...'}
            </p>
            <NotificationsSection logic={props.notifications} />
            <PlanSection logic={props.plan} canChange={false} />
          </>
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
      </div>
    </>
  )
}

/**
 * What admins manage: the organisation's settings, its people, and the audit log (which refreshes
 * after a change made here).
 */
function AdminSections(props: {
  people?: PeopleLogic
  organization?: OrganizationLogic
  audit?: AuditLogic
  plan?: PlanLogic
  sso?: SsoLogic
  selfId: number | null
}) {
  const audit = useAuditLog(props.audit)
  const refresh = () => audit.send({ type: 'refresh' })
  return (
    <>
      <OrganizationSection logic={props.organization} onSaved={refresh} />
      <PlanSection logic={props.plan} canChange />
      <PeopleSection logic={props.people} selfId={props.selfId} onChanged={refresh} />
      <SsoSection logic={props.sso} onSaved={refresh} />
      <AuditSection audit={audit} />
    </>
  )
}
