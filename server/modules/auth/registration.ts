import { and, eq, ne, sql } from 'drizzle-orm'
import {
  AUTH_ERROR_CODES,
  type ConfirmEmailResponse,
  type InviteUserRequest,
  type InviteUserResponse,
} from '../../../contract/auth.ts'
import { AUTH_TEXTS, registrationEmailError, userLimitText } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { AuthContext } from '../../auth/context.ts'
import { hashPassword, passwordPolicyError } from '../../auth/password.ts'
import { auditBy, writeAudit } from '../../db/audit.ts'
import { licenses, organizationDomains, organizations, users } from '../../db/schema.ts'
import { ApiException, apiError } from '../../http/errors.ts'
import type { MailMessage } from '../../mail/index.ts'
import { confirmationMail, inviteMail, joinRequestMail } from '../../mail/messages.ts'
import { defaultLimits, effectiveLimit } from '../account/license.ts'
import type { AuthParts } from './parts.ts'
import {
  type AuthServiceDeps,
  badPassword,
  invalidLink,
  isUniqueViolation,
  mailingFlow,
  normaliseEmail,
  toAccessUser,
  type UserRow,
} from './shared.ts'

/**
 * Registration, email confirmation and invitations.
 */
export function createRegistration(deps: AuthServiceDeps, parts: AuthParts) {
  const { db, afterCommit, target } = mailingFlow(deps)

  const { limitAddress, findUserByEmail } = parts.login
  const { issueLink, revokeLinks, consumeLink } = parts.links
  const { startSession } = parts.sessions

  /**
   * POST register/. Creates the organisation, its first user (admin), its Free license and a
   * confirmation link in one transaction. An address already registered answers the same body;
   * only an unconfirmed owner gets a fresh confirmation link, mailed to that same address (LT6).
   */
  async function register(
    input: {
      email: string
      password: string
      organization: string
      firstName: string
      lastName: string
      marketing_consent: boolean
    },
    address: string,
  ) {
    await limitAddress(address)
    const emailError = registrationEmailError(input.email)
    if (emailError) {
      throw apiError(400, emailError, { msg: emailError, code: ERROR_CODES.validation })
    }
    const policy = passwordPolicyError(input.password)
    if (policy) throw badPassword(policy)
    const email = normaliseEmail(input.email)
    // hashed before looking the address up, so new and known addresses take the same time
    const passwordHash = await hashPassword(input.password)
    const at = deps.now()

    const mails: MailMessage[] = []
    try {
      await db.transaction(async (tx) => {
        const existing = await findUserByEmail(tx, email)
        if (existing) {
          if (['active', 'pending'].includes(existing.status) && !existing.emailConfirmedAt) {
            const token = await issueLink(tx, existing, 'confirm_email')
            mails.push(
              confirmationMail(target, {
                to: existing.email,
                firstName: existing.firstName,
                token,
              }),
            )
          }
          return
        }
        // an address at a domain an organisation verified asks to join it, and waits
        const [home] = await tx
          .select({ orgId: organizationDomains.orgId })
          .from(organizationDomains)
          .where(eq(organizationDomains.domain, email.split('@')[1] ?? ''))
        if (home) {
          const [pending] = await tx
            .insert(users)
            .values({
              orgId: home.orgId,
              email,
              firstName: input.firstName.trim(),
              lastName: input.lastName.trim(),
              passwordHash,
              role: 'contributor',
              status: 'pending',
              marketingConsent: input.marketing_consent,
              createdAt: at,
              updatedAt: at,
            })
            .returning()
          if (!pending) throw new Error('user insert returned no row')
          const token = await issueLink(tx, pending, 'confirm_email')
          mails.push(
            confirmationMail(target, { to: pending.email, firstName: pending.firstName, token }),
          )
          return
        }
        const [org] = await tx
          .insert(organizations)
          .values({ name: input.organization.trim(), createdAt: at, updatedAt: at })
          .returning()
        if (!org) throw new Error('organization insert returned no row')
        const [user] = await tx
          .insert(users)
          .values({
            orgId: org.id,
            email,
            firstName: input.firstName.trim(),
            lastName: input.lastName.trim(),
            passwordHash,
            role: 'admin',
            status: 'active',
            marketingConsent: input.marketing_consent,
            createdAt: at,
            updatedAt: at,
          })
          .returning()
        if (!user) throw new Error('user insert returned no row')
        await tx.insert(licenses).values({ orgId: org.id, ...defaultLimits(), createdAt: at })
        const token = await issueLink(tx, user, 'confirm_email')
        mails.push(confirmationMail(target, { to: user.email, firstName: user.firstName, token }))
      })
    } catch (error) {
      // a concurrent registration of the same address won the unique index: answer alike
      if (!isUniqueViolation(error)) throw error
      mails.length = 0
    }
    afterCommit(mails)
    return { status: 'success' as const, msg: AUTH_TEXTS.registrationSent }
  }

  /** POST confirm_email/: consumes the link, confirms the address and signs the user in. */
  async function confirmEmail(token: string): Promise<ConfirmEmailResponse> {
    const result = await db.transaction(async (tx) => {
      const link = await consumeLink(tx, 'confirm_email', token)
      if (!link) return null
      const [user] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, link.userId), eq(users.orgId, link.orgId)))
        .for('update')
      if (user?.status === 'pending') {
        // the address is proved: the organisation's admins are asked to approve
        const at = deps.now()
        await tx
          .update(users)
          .set({ emailConfirmedAt: user.emailConfirmedAt ?? at, updatedAt: at })
          .where(eq(users.id, user.id))
        await revokeLinks(tx, user.id, ['confirm_email'])
        const [org] = await tx
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, user.orgId))
        const admins = await tx
          .select({ email: users.email, firstName: users.firstName })
          .from(users)
          .where(
            and(eq(users.orgId, user.orgId), eq(users.role, 'admin'), eq(users.status, 'active')),
          )
        await writeAudit(
          tx,
          { orgId: user.orgId, actorId: user.id },
          {
            action: 'user.join_requested',
            target: `user:${user.id}`,
            name: user.email,
            createdAt: at,
          },
        )
        return { pending: { user, organization: org?.name ?? 'the organisation', admins } }
      }
      if (user?.status !== 'active') return null
      const at = deps.now()
      await tx
        .update(users)
        .set({ emailConfirmedAt: user.emailConfirmedAt ?? at, lastLoginAt: at, updatedAt: at })
        .where(eq(users.id, user.id))
      await revokeLinks(tx, user.id, ['confirm_email'])
      const pair = await startSession(tx, user)
      return { pair, user }
    })
    if (!result) {
      // the link was opened before: an address already confirmed says so and offers sign-in
      const owner = await parts.links.spentLinkUser('confirm_email', token)
      const [user] = owner ? await db.select().from(users).where(eq(users.id, owner)) : []
      if (user?.status === 'active' && user.emailConfirmedAt) {
        throw apiError(400, AUTH_TEXTS.emailAlreadyConfirmed, {
          msg: AUTH_TEXTS.emailAlreadyConfirmed,
          code: AUTH_ERROR_CODES.alreadyConfirmed,
        })
      }
      throw invalidLink(AUTH_TEXTS.confirmEmailFailed)
    }
    if (result.pending) {
      const { user, organization, admins } = result.pending
      afterCommit(
        admins.map((admin) =>
          joinRequestMail(target, {
            to: admin.email,
            firstName: admin.firstName,
            organization,
            requester: `${user.firstName} ${user.lastName}`.trim() || user.email,
            requesterEmail: user.email,
          }),
        ),
      )
      const text = AUTH_TEXTS.joinRequested.replace('{organization}', organization)
      throw apiError(403, text, { msg: text, code: AUTH_ERROR_CODES.pendingApproval })
    }
    return {
      access: result.pair.access,
      refresh: result.pair.refresh,
      user: toAccessUser(result.user),
    }
  }

  /**
   * POST admin/users/invite/ (admins). The license row is locked for the seat count, so parallel
   * invites at the last seat give exactly one success (TI6); the invite is audited (TI7).
   */
  async function inviteUser(
    auth: AuthContext,
    input: InviteUserRequest,
    requestId: string,
  ): Promise<InviteUserResponse> {
    const emailError = registrationEmailError(input.email)
    if (emailError) {
      throw apiError(400, emailError, { msg: emailError, code: ERROR_CODES.validation })
    }
    const email = normaliseEmail(input.email)
    const orgId = auth.org.id
    let outcome: { user: UserRow; mail: MailMessage } | ApiException
    try {
      outcome = await db.transaction(async (tx) => {
        const [license] = await tx
          .select()
          .from(licenses)
          .where(eq(licenses.orgId, orgId))
          .for('update')
        const existing = await findUserByEmail(tx, email)
        let user: UserRow | undefined
        const at = deps.now()
        // what this invitation says: a person invited again (or invited back) takes these, never
        // what an earlier invitation or their removed account held
        const fields = {
          firstName: input.first_name?.trim() ?? '',
          lastName: input.last_name?.trim() ?? '',
          role: input.role ?? ('contributor' as const),
          status: 'invited' as const,
          updatedAt: at,
        }
        // someone this organisation removed may be invited back: a fresh start, no password
        const returning = existing?.orgId === orgId && existing.status === 'removed'
        if (existing && !returning) {
          if (existing.orgId !== orgId || existing.status !== 'invited') {
            return apiError(409, AUTH_TEXTS.emailInUse, {
              msg: AUTH_TEXTS.emailInUse,
              code: ERROR_CODES.conflict,
            })
          }
          // inviting an invited user again sends a new link (the old one dies, LT10) and the
          // newest invitation's role and names hold
          ;[user] = await tx.update(users).set(fields).where(eq(users.id, existing.id)).returning()
        } else {
          const [seats] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(users)
            // a request to join takes a seat only once approved
            .where(
              and(eq(users.orgId, orgId), ne(users.status, 'removed'), ne(users.status, 'pending')),
            )
          const maxUsers = effectiveLimit(license, 'max_users', at)
          if (maxUsers !== null && (seats?.count ?? 0) >= maxUsers) {
            return apiError(409, userLimitText(maxUsers), {
              msg: userLimitText(maxUsers),
              code: AUTH_ERROR_CODES.licenseLimit,
              detail: { limit: 'max_users', max: maxUsers },
            })
          }
          ;[user] =
            returning && existing
              ? await tx
                  .update(users)
                  .set({
                    ...fields,
                    // as a new row: the address is proved again by the new link, no password,
                    // no sign-in and no consent carried over from the removed account
                    passwordHash: null,
                    emailConfirmedAt: null,
                    mustChangePassword: false,
                    tempPasswordExpiresAt: null,
                    marketingConsent: false,
                    lastLoginAt: null,
                  })
                  .where(eq(users.id, existing.id))
                  .returning()
              : await tx
                  .insert(users)
                  .values({ orgId, email, ...fields, createdAt: at })
                  .returning()
        }
        if (!user) throw new Error('user insert returned no row')
        const token = await issueLink(tx, user, 'invite')
        // the invitee by their address, never a bare id (issue 30)
        await writeAudit(tx, auditBy(auth, requestId), {
          action: existing ? 'user.reinvited' : 'user.invited',
          target: `user:${user.id}`,
          name: user.email,
          detail: existing
            ? { role: user.role, before: { role: existing.role, status: existing.status } }
            : { role: user.role },
          createdAt: at,
        })
        const [org] = await tx
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, orgId))
        const inviter = `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email
        const mail = inviteMail(target, {
          to: user.email,
          firstName: user.firstName,
          organization: org?.name ?? 'your organisation',
          inviter,
          userId: user.id,
          token,
        })
        return { user, mail }
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      outcome = apiError(409, AUTH_TEXTS.emailInUse, {
        msg: AUTH_TEXTS.emailInUse,
        code: ERROR_CODES.conflict,
      })
    }
    if (outcome instanceof ApiException) throw outcome
    afterCommit([outcome.mail])
    const { user } = outcome
    return {
      status: 'success',
      user: {
        id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        status: user.status,
      },
    }
  }

  return { register, confirmEmail, inviteUser }
}

export type Registration = ReturnType<typeof createRegistration>
