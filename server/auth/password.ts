import { type Algorithm, hash, verify } from '@node-rs/argon2'
import commonPasswords from 'fxa-common-password-list'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'

/**
 * Password storage and policy (AS3). argon2id at the OWASP parameters (19 MiB, 2 passes, 1 lane),
 * through the library's async API so the work runs on the libuv threadpool and the event loop
 * stays free while a login verifies.
 */

// the package declares its enums `const`, which isolated modules cannot read: 2 is Argon2id
const ARGON2ID = 2 as Algorithm
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 256
/** From this length any composition is accepted: such a passphrase is in no common list. */
export const PASSPHRASE_LENGTH = 64

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS)

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    // a malformed stored hash is a failed login, never a crash
    return false
  }
}

/**
 * A hash of a random password, verified for unknown emails so that they take as long as a wrong
 * password for a real account (AS1). Computed once, lazily, with the same parameters.
 */
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID())
  return dummyHash
}

/**
 * The list ships the 50,000 most common passwords of at least 8 characters from a public top-1M
 * breach corpus, lower-cased; a capitalised common password is just as weak, so the lower-cased
 * candidate is checked too.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords.test(password) || commonPasswords.test(password.toLowerCase())
}

/** The server's password policy: the text to show, or null when the password is acceptable. */
export function passwordPolicyError(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return AUTH_TEXTS.passwordTooShort
  if (password.length > PASSWORD_MAX_LENGTH) return AUTH_TEXTS.passwordTooLong
  if (password.length >= PASSPHRASE_LENGTH) return null
  if (isCommonPassword(password)) return AUTH_TEXTS.passwordTooCommon
  return null
}
