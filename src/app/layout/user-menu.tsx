import { ChevronDown, Lightbulb, LogOut } from 'lucide-react'
import { css } from 'styled-system/css'
import { selectProfile, selectUser } from '../../../machines/session/index.ts'
import { InitialsAvatar, Menu, Portal } from '../../components/ui'
import { SessionContext } from '../session.tsx'

const trigger = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  p: '1',
  pr: '2',
  borderRadius: 'full',
  bg: 'transparent',
  border: 'none',
  cursor: 'pointer',
  color: 'fg.muted',
  _hover: { bg: 'gray.a3' },
  _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default' },
})
const header = css({ display: 'flex', gap: '3', alignItems: 'center', px: '2.5', py: '2' })
const name = css({ fontWeight: 'semibold', textStyle: 'sm', color: 'fg.default', lineClamp: 1 })
const email = css({ textStyle: 'xs', color: 'fg.muted', lineClamp: 1 })
const content = css({ minW: '60', maxW: 'calc(100vw - 1rem)' })

export function fullName(user: { first_name?: string | null; last_name?: string | null } | null) {
  return [user?.first_name, user?.last_name]
    .filter((part): part is string => Boolean(part?.trim()))
    .join(' ')
}

/** The user menu of the top bar (spec section 2, 'Layout'). */
export function UserMenu(props: { onAskForFeature?: () => void }) {
  const tokenUser = SessionContext.useSelector(selectUser)
  const profileUser = SessionContext.useSelector(selectProfile)?.user ?? null
  const session = SessionContext.useActorRef()
  // the profile once loaded; until then (or if it failed) the user the access token carries
  const user = {
    first_name: profileUser?.first_name ?? tokenUser?.first_name,
    last_name: profileUser?.last_name ?? tokenUser?.last_name,
    email: profileUser?.email || tokenUser?.email,
  }
  const displayName = fullName(user) || user.email || 'Signed in'
  return (
    <Menu.Root positioning={{ placement: 'bottom-end', gutter: 6 }}>
      <Menu.Trigger className={trigger} aria-label="User menu">
        <InitialsAvatar name={fullName(user) || user.email || ''} size="sm" />
        <ChevronDown size={14} aria-hidden />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content className={content}>
            <div className={header}>
              <InitialsAvatar name={fullName(user) || user.email || ''} size="md" />
              <div>
                <div className={name} data-testid="user-menu-name">
                  {displayName}
                </div>
                <div className={email} data-testid="user-menu-email">
                  {user.email || 'No email'}
                </div>
              </div>
            </div>
            <Menu.Separator />
            <Menu.Item
              value="feature"
              disabled={!props.onAskForFeature}
              onSelect={() => props.onAskForFeature?.()}
            >
              <Lightbulb size={16} aria-hidden />
              Ask for a Feature
            </Menu.Item>
            <Menu.Item value="logout" onSelect={() => session.send({ type: 'logout' })}>
              <LogOut size={16} aria-hidden />
              Log out
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}
