import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { hashPassword } from '../../../server/auth/password.ts'
import type { Database } from '../../../server/db/index.ts'
import { licenses, organizations, users } from '../../../server/db/schema.ts'
import { defaultLimits } from '../../../server/modules/account/license.ts'
import { type Account, newAccount } from '../../support/account.ts'
import { apiCall } from '../../support/api-call.ts'
import { tokenOf } from '../../support/mailed-links.ts'
import type { MailCapture } from '../../support/smtp.ts'
import { startSmtpCapture } from '../../support/smtp.ts'
import { createTestApp, lateBound } from '../support.ts'

// the suites read a new account and a mailed link's token from here too
export { type Account, newAccount, tokenOf }

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/** A clock the tests move by hand (LT2). */
export function manualClock(start = new Date('2030-01-01T09:00:00Z')) {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms
    },
    set(date: Date) {
      current = date.getTime()
    },
  }
}

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export const call = (
  ctx: TestApp,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) => apiCall((at, init) => ctx.app.request(at, init), method, path, options)

export const post = (ctx: TestApp, path: string, body?: unknown, token?: string) =>
  call(ctx, 'POST', path, { body: body ?? {}, token })
export const get = (ctx: TestApp, path: string, token?: string) => call(ctx, 'GET', path, { token })

/** A file of a multipart form, as a browser sends it: its bytes (or text) under its name. */
export const fileOf = (name: string, data: Buffer | string) =>
  new File([typeof data === 'string' ? data : new Uint8Array(data)], name)

/**
 * A multipart POST to the in-process app (path without /api/v1): each field a text, a file or
 * several files (`fileOf`), left out when undefined; the status and the body read as JSON.
 */
export async function postForm(
  ctx: TestApp,
  path: string,
  token: string,
  fields: Record<string, string | File | File[] | undefined>,
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    for (const part of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      form.append(name, part)
    }
  }
  const res = await ctx.app.request(apiPath(path), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
  return { status: res.status, body: (await res.json()) as any }
}

export function registerBody(account: Account) {
  return {
    email: account.email,
    password: account.password,
    organization: account.organization,
    firstName: account.firstName,
    lastName: account.lastName,
    marketing_consent: false,
  }
}

/** Registers through the API, follows the mailed confirmation link, and returns the session. */
export async function registerAndConfirm(ctx: TestApp, smtp: MailCapture, account = newAccount()) {
  const registered = await post(ctx, paths.auth.register, registerBody(account))
  expect(registered.status).toBe(200)
  await ctx.mailer.idle()
  const mail = await smtp.waitFor(account.email, { subject: /confirm/i })
  const { token } = tokenOf(mail, '/confirm_email')
  const confirmed = await post(ctx, paths.auth.confirmEmail, { uuid: token })
  expect(confirmed.status).toBe(200)
  return {
    account,
    access: confirmed.body.access as string,
    refresh: confirmed.body.refresh as string,
    user: confirmed.body.user as { id: number; email: string },
  }
}

export async function login(ctx: TestApp, email: string, password: string) {
  return post(ctx, paths.auth.login, { email, password })
}

let sharedHash: Promise<string> | undefined
/** One argon2 hash reused by every directly inserted user: inserting many stays fast. */
export const SHARED_PASSWORD = 'Shared-password-for-fixtures-42'
const sharedPasswordHash = () => {
  sharedHash ??= hashPassword(SHARED_PASSWORD)
  return sharedHash
}

/** An organisation (Free license) with one user, straight into the database. */
export async function insertUser(
  database: Database,
  input: {
    email?: string
    role?: Role
    status?: 'active' | 'invited' | 'disabled' | 'removed'
    confirmed?: boolean
    orgId?: number
    mustChangePassword?: boolean
    tempPasswordExpiresAt?: Date
  } = {},
) {
  const { db } = database
  let orgId = input.orgId
  if (orgId === undefined) {
    const [org] = await db.insert(organizations).values({ name: 'Fixture org' }).returning()
    if (!org) throw new Error('no org')
    orgId = org.id
    await db.insert(licenses).values({ orgId, ...defaultLimits() })
  }
  const email = input.email ?? `fixture-${randomBytes(5).toString('hex')}@example.com`
  const [user] = await db
    .insert(users)
    .values({
      orgId,
      email,
      firstName: 'Fix',
      lastName: 'Ture',
      passwordHash: input.status === 'invited' ? null : await sharedPasswordHash(),
      role: input.role ?? 'admin',
      status: input.status ?? 'active',
      emailConfirmedAt: input.confirmed === false ? null : new Date(),
      mustChangePassword: input.mustChangePassword ?? false,
      tempPasswordExpiresAt: input.tempPasswordExpiresAt,
    })
    .returning()
  if (!user) throw new Error('no user')
  return { user, orgId, email, password: SHARED_PASSWORD }
}

/** Signs a directly inserted user in. */
export async function signIn(ctx: TestApp, email: string, password = SHARED_PASSWORD) {
  const res = await login(ctx, email, password)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { access: string; refresh: string; requires_password_change: boolean }
}

/**
 * One person of each role in `roles`, signed in: their access tokens by role. They join the
 * organisation `orgId`, or else the one the first of them makes (an admin's, as a rule).
 */
export async function signedInTeam<R extends Role>(
  ctx: TestApp,
  roles: readonly R[],
  orgId?: number,
) {
  const tokens = {} as Record<R, string>
  let team = orgId
  for (const role of roles) {
    const person = await insertUser(ctx.database, { role, orgId: team })
    team = person.orgId
    tokens[role] = (await signIn(ctx, person.email)).access
  }
  return tokens
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/**
 * An app with its own SMTP capture for one describe block: started before its tests, closed after.
 * The two handles forward to the app and the capture once they exist (`lateBound`).
 */
export function withMailApp(options: Omit<Parameters<typeof createTestApp>[0] & object, 'smtp'>) {
  let app: { ctx: TestApp; smtp: MailCapture } | undefined
  beforeAll(async () => {
    const smtp = await startSmtpCapture()
    app = { smtp, ctx: await createTestApp({ ...options, smtp }) }
  })
  afterAll(async () => {
    await app?.ctx.close()
    await app?.smtp.close()
  })
  return {
    ctx: lateBound(() => app?.ctx, 'the mail app'),
    smtp: lateBound(() => app?.smtp, 'the mail capture'),
  }
}

/** `withMailApp` on a clock the test moves by hand (`manualClock`), the clock with it. */
export function withMailAppOnClock(options: Omit<Parameters<typeof withMailApp>[0], 'now'> = {}) {
  const clock = manualClock()
  return { clock, ...withMailApp({ ...options, now: clock.now }) }
}
