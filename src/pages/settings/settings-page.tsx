import { css } from 'styled-system/css'
import { can, ROLE_TEXTS, ROLES } from '../../../contract/roles.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { SessionContext } from '../../app/session.tsx'
import { card, muted } from '../../components/styles.ts'
import { PageHeader } from '../page-header.tsx'
import { type PeopleLogic, PeopleSection } from './people-section.tsx'

const sections = css({ display: 'flex', flexDirection: 'column', gap: '8' })
const roles = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '3',
  mt: '3',
})
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })

/** /settings: the organisation's people and what each role may do. */
export default function SettingsPage({ people }: { people?: PeopleLogic }) {
  const profile = SessionContext.useSelector(selectProfile)
  const role = profile?.user.role ?? null
  return (
    <>
      <PageHeader title="Settings" description="Your organisation's people and their roles." />
      <div className={sections}>
        {role && can(role, 'users.manage') ? (
          <PeopleSection logic={people} selfId={profile?.user.id ?? null} />
        ) : (
          <p className={muted}>
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
      </div>
    </>
  )
}
