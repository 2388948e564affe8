import { eq } from 'drizzle-orm'
import { users } from '../../db/schema.ts'
import { createJoins } from './joins.ts'
import { createLinks } from './links.ts'
import { createLogin } from './login.ts'
import { createPasswords } from './passwords.ts'
import { createPeople } from './people.ts'
import { createRegistration } from './registration.ts'
import { createSessions } from './sessions.ts'
import type { AuthServiceDeps } from './shared.ts'

export * from './shared.ts'

/**
 * Accounts and sessions: registration, login and lockout, tokens and sessions, passwords and
 * one-time links, each in a file of its own; this composes them into one service.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const links = createLinks(deps)
  const sessions = createSessions(deps)
  const login = createLogin(deps, sessions)
  const registration = createRegistration(deps, { login, links, sessions })
  const passwords = createPasswords(deps, { login, links, sessions })
  const people = createPeople(deps, { login, links, sessions })
  const joins = createJoins(deps, { login, links, sessions }, people)
  return {
    login: login.login,
    ...registration,
    refresh: sessions.refresh,
    tokenGet: sessions.tokenGet,
    logout: sessions.logout,
    authenticate: sessions.authenticate,
    ...passwords,
    people: { ...people, ...joins },
    issueMagicLink: links.issueMagicLink,
    consumeLink: links.consumeLink,
    verifyAccess: deps.tokens.verifyAccess,
    /** A session for someone an identity provider vouched for (single sign-on, Google). */
    async startSessionFor(userId: number) {
      const [user] = await deps.database.db.select().from(users).where(eq(users.id, userId))
      if (user?.status !== 'active') throw new Error('no active user to sign in')
      const pair = await sessions.startSession(deps.database.db, user)
      return { access: pair.access, refresh: pair.refresh, email: user.email }
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
