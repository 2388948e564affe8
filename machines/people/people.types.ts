import type { UserStatus } from '../../contract/auth.ts'
import type { Role } from '../../contract/roles.ts'
import type { AdminUser, TemporaryPassword } from '../../contract/users.ts'

/** The list's query: '' for no filter. */
export interface PeopleQuery {
  page: number
  page_size: number
  q: string
  role: Role | ''
  status: UserStatus | ''
}

export interface InviteForm {
  email: string
  first_name: string
  last_name: string
  role: Role
}

/** The person an action is about. */
export type PersonAction =
  | { kind: 'role'; id: number; role: Role }
  | { kind: 'remove' | 'magicLink' | 'temporaryPassword' | 'join'; id: number; role?: undefined }

export interface PeopleContext {
  query: PeopleQuery
  count: number
  results: AdminUser[]
  listError: string | null
  invite: InviteForm
  action: PersonAction | null
  /** Why the last action failed ('This is the organisation’s last admin...'). */
  actionError: string | null
  /** What the last action did ('Invitation sent to ...'). */
  notice: string | null
  /** A temporary password, held only while its dialog shows it. */
  temporary: TemporaryPassword | null
}

export type PeopleEvents =
  | { type: 'search.change'; q: string }
  | { type: 'filter.change'; role: Role | ''; status: UserStatus | '' }
  | { type: 'page.change'; page: number }
  | { type: 'refresh' }
  | { type: 'invite.open' }
  | { type: 'invite.edit'; change: Partial<InviteForm> }
  | { type: 'invite.submit' }
  | { type: 'role.change'; id: number; role: Role }
  | { type: 'remove.ask'; id: number }
  | { type: 'remove.confirm' }
  | { type: 'join.approve'; id: number }
  | { type: 'join.reject'; id: number }
  | { type: 'magicLink.send'; id: number }
  | { type: 'temporaryPassword.ask'; id: number }
  | { type: 'temporaryPassword.confirm' }
  | { type: 'dialog.close' }
  | { type: 'notice.dismiss' }
