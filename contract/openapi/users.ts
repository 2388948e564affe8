import { inviteUserRequestSchema, inviteUserResponseSchema, statusResponseSchema } from '../auth.ts'
import { paths } from '../paths.ts'
import {
  adminUserListSchema,
  adminUserSchema,
  temporaryPasswordSchema,
  userListQuerySchema,
  userRoleSchema,
  userUpdateSchema,
} from '../users.ts'
import { type OperationDocs, op } from './operation.ts'

const U = paths.users

/** The people of the organisation, as its admins manage them. */
export const userOperations: OperationDocs = {
  [op('GET', U.list)]: {
    summary: 'List the organisation’s people, searched and filtered, a page at a time',
    access: 'users.manage',
    query: userListQuerySchema,
    response: adminUserListSchema,
  },
  [op('POST', U.invite)]: {
    summary: 'Invite a person: they are mailed a link to set their password, valid 7 days',
    access: 'users.manage',
    body: inviteUserRequestSchema,
    response: inviteUserResponseSchema,
    status: 201,
  },
  [op('POST', U.update('{id}'))]: {
    summary: 'Change a person’s name',
    access: 'users.manage',
    body: userUpdateSchema,
    response: adminUserSchema,
  },
  [op('POST', U.role('{id}'))]: {
    summary: 'Change a person’s role (the organisation always keeps an admin)',
    access: 'users.manage',
    body: userRoleSchema,
    response: adminUserSchema,
  },
  [op('POST', U.approve('{id}'))]: {
    summary: 'Let in a person who asked to join from a verified domain',
    access: 'users.manage',
    response: adminUserSchema,
  },
  [op('POST', U.reject('{id}'))]: {
    summary: 'Turn down a person’s request to join',
    access: 'users.manage',
    response: statusResponseSchema,
  },
  [op('POST', U.remove('{id}'))]: {
    summary: 'Remove a person: their sessions and links end at once',
    access: 'users.manage',
    response: statusResponseSchema,
  },
  [op('POST', U.sendMagicLink('{id}'))]: {
    summary: 'Mail a person a one-time sign-in link, valid 10 minutes',
    access: 'users.manage',
    response: statusResponseSchema,
  },
  [op('POST', U.generateTemporaryPassword('{id}'))]: {
    summary: 'Give a person a temporary password, shown once, to change at their next sign-in',
    access: 'users.manage',
    response: temporaryPasswordSchema,
  },
}
