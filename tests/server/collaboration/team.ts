import type { Role } from '../../../contract/roles.ts'
import { createLogger } from '../../../server/logger.ts'
import type { MailGathering } from '../../../server/modules/notifications/gather.ts'
import { createNotificationService } from '../../../server/modules/notifications/service.ts'
import { questionnaire, rowsOf } from '../answering/helpers.ts'
import { insertUser, signIn, type TestApp } from '../auth/helpers.ts'
import { TEST_JWT_SECRET, TEST_PUBLIC_URL } from '../support.ts'

/** A person of `orgId` (or of a new organisation), signed in unless removed. */
export async function person(
  ctx: TestApp,
  orgId: number | undefined,
  role: Role,
  status: 'active' | 'removed' = 'active',
) {
  const fixture = await insertUser(ctx.database, { role, orgId, status })
  const token = status === 'active' ? (await signIn(ctx, fixture.email)).access : ''
  return { ...fixture, id: fixture.user.id, token }
}

/** An organisation with one person of each role, and an analysed questionnaire of `questions`. */
export async function team(ctx: TestApp, questions: string[]) {
  const admin = await person(ctx, undefined, 'admin')
  const orgId = admin.orgId
  const [approver, contributor, viewer] = await Promise.all([
    person(ctx, orgId, 'approver'),
    person(ctx, orgId, 'contributor'),
    person(ctx, orgId, 'viewer'),
  ])
  const q = await questionnaire(ctx, admin.token, questions)
  const rows = await rowsOf(ctx, admin.token, q.id)
  return {
    admin,
    approver,
    contributor,
    viewer,
    orgId,
    q,
    rows,
    all: [admin, approver, contributor, viewer],
  }
}

/**
 * A notification service on the test app's database, as another API node runs it: the app's
 * mailer, the tests' public address and secret, and the case's own clock or `gathering` when it
 * sets them.
 */
export const notificationService = (
  ctx: TestApp,
  own: { now?: () => Date; gathering?: Partial<MailGathering> } = {},
) =>
  createNotificationService({
    database: ctx.database,
    logger: createLogger('silent'),
    mailer: ctx.mailer,
    publicUrl: TEST_PUBLIC_URL,
    secret: TEST_JWT_SECRET,
    ...own,
  })
