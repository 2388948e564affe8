import * as z from 'zod/mini'
import { USER_STATUSES } from './auth.ts'
import { paged } from './paging.ts'
import { ROLES } from './roles.ts'
import { searchTextSchema } from './text.ts'

/** The people of an organisation as its admins manage them (under /admin/users/). */

export const adminUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  last_login_at: z.nullable(z.string()),
  created_at: z.string(),
})
export type AdminUser = z.infer<typeof adminUserSchema>
export const adminUserListSchema = paged(adminUserSchema)
export type AdminUserList = z.infer<typeof adminUserListSchema>

/** GET admin/users/: search by name or email, filter by role and status, a page at a time. */
export const userListQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 25),
  q: z.optional(searchTextSchema(200)),
  role: z.optional(z.enum(ROLES)),
  /** Removed people are listed only when asked for. */
  status: z.optional(z.enum(USER_STATUSES)),
})
export type UserListQuery = z.input<typeof userListQuerySchema>

const name = z.string().check(z.trim(), z.maxLength(100, 'Names are at most 100 characters'))

/** POST admin/users/{id}/update/: the person's name. */
export const userUpdateSchema = z.object({
  first_name: z.optional(name),
  last_name: z.optional(name),
})
export type UserUpdate = z.input<typeof userUpdateSchema>

/** POST admin/users/{id}/role/. */
export const userRoleSchema = z.object({ role: z.enum(ROLES) })
export type UserRoleChange = z.input<typeof userRoleSchema>

/** POST admin/users/{id}/generate-temporary-password/: shown once, never stored in the clear. */
export const temporaryPasswordSchema = z.object({
  temporary_password: z.string(),
  expires_at: z.string(),
})
export type TemporaryPassword = z.infer<typeof temporaryPasswordSchema>

/** POST admin/magic-link/ (public): a one-time sign-in link, redeemed only by a POST (LT9). */
export const magicLinkRedeemSchema = z.object({ uid: z.string(), token: z.string() })

export const USER_TEXTS = {
  notFound: 'User not found',
  lastAdmin:
    'This is the organisation’s last admin. Make someone else an admin first, so that the organisation keeps one.',
  removed: 'This person was removed from the organisation.',
  notActive: 'Only an active account can be sent a sign-in link or given a temporary password.',
  notPending: 'Only a request to join can be approved or rejected.',
  emailNotConfirmed: 'This person has not confirmed their email address yet.',
  magicLinkSent: 'A sign-in link was sent. It works once, within 10 minutes.',
  invalidMagicLink: 'This sign-in link is invalid or has expired. Ask your admin for a new one.',
} as const
