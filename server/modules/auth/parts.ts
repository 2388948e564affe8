import type { Links } from './links.ts'
import type { Login } from './login.ts'
import type { Sessions } from './sessions.ts'

/** The parts of the auth area that registration and the password flows are built on. */
export interface AuthParts {
  login: Login
  links: Links
  sessions: Sessions
}
