import type { Role } from '../../contract/auth.ts'

/** Who is calling, as requireAuth puts it in the request context. The tenant comes only from here. */
export interface AuthContext {
  user: {
    id: number
    email: string
    firstName: string
    lastName: string
    role: Role
    mustChangePassword: boolean
  }
  org: { id: number }
  role: Role
  /** The session (refresh family) the access token belongs to. */
  sid: string
  sessionExpiresAt: Date
  /**
   * Set when the caller is an API key (issue 41): the organisation's program, attributed to the
   * key's creator, with the role its scopes give and none of a person's own calls.
   */
  apiKey?: { id: number; name: string; scopes: readonly ('read' | 'write')[] }
}
