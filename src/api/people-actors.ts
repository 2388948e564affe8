import { fromPromise } from 'xstate'
import { inviteUserResponseSchema } from '../../contract/auth.ts'
import { paths } from '../../contract/paths.ts'
import type { Role } from '../../contract/roles.ts'
import {
  type AdminUser,
  adminUserListSchema,
  adminUserSchema,
  type TemporaryPassword,
  temporaryPasswordSchema,
} from '../../contract/users.ts'
import type { InviteForm, PeopleQuery } from '../../machines/people/index.ts'
import { type ApiClient, api } from './client.ts'

/** The real side effects of Settings → People: the calls under /admin/users/. */
export function peopleActors(client: ApiClient = api) {
  return {
    loadPeople: fromPromise<{ count: number; results: AdminUser[] }, PeopleQuery>(({ input }) => {
      const search = new URLSearchParams({
        page: String(input.page),
        page_size: String(input.page_size),
      })
      for (const key of ['q', 'role', 'status'] as const)
        if (input[key]) search.set(key, input[key])
      return client.get(`${paths.users.list}?${search}`, adminUserListSchema)
    }),
    invite: fromPromise<AdminUser, InviteForm>(async ({ input }) => {
      const answer = await client.post(paths.users.invite, input, inviteUserResponseSchema)
      return { ...answer.user, last_login_at: null, created_at: new Date().toISOString() }
    }),
    changeRole: fromPromise<AdminUser, { id: number; role: Role }>(({ input }) =>
      client.post(paths.users.role(input.id), { role: input.role }, adminUserSchema),
    ),
    removePerson: fromPromise<void, { id: number }>(({ input }) =>
      client.requestVoid(paths.users.remove(input.id), { method: 'POST', body: {} }),
    ),
    approvePerson: fromPromise<void, { id: number }>(({ input }) =>
      client.requestVoid(paths.users.approve(input.id), { method: 'POST', body: {} }),
    ),
    rejectPerson: fromPromise<void, { id: number }>(({ input }) =>
      client.requestVoid(paths.users.reject(input.id), { method: 'POST', body: {} }),
    ),
    sendMagicLink: fromPromise<void, { id: number }>(({ input }) =>
      client.requestVoid(paths.users.sendMagicLink(input.id), { method: 'POST', body: {} }),
    ),
    temporaryPassword: fromPromise<TemporaryPassword, { id: number }>(({ input }) =>
      client.post(paths.users.generateTemporaryPassword(input.id), {}, temporaryPasswordSchema),
    ),
  }
}
