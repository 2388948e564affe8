import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { createLogger } from '../../../server/logger.ts'
import { createReviewDigest } from '../../../server/modules/knowledge/digest.ts'
import { DAY, insertUser, post, signIn, withMailApp } from '../auth/helpers.ts'
import { TEST_PUBLIC_URL } from '../support.ts'

const { ctx, smtp } = withMailApp({})

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()
const digest = () =>
  createReviewDigest({
    database: ctx.database,
    mailer: ctx.mailer,
    publicUrl: TEST_PUBLIC_URL,
    logger: createLogger('silent'),
  })

describe('the weekly review email (issue 28)', () => {
  it('tells each owner which of their answers are due or stale, and nobody else, unless turned off', async () => {
    const admin = await insertUser(ctx.database, { role: 'admin' })
    const owner = await insertUser(ctx.database, { role: 'contributor', orgId: admin.orgId })
    const other = await insertUser(ctx.database, { role: 'approver', orgId: admin.orgId })
    const token = (await signIn(ctx, admin.email)).access
    const item = async (question: string, days: number, ownerId: number | null) =>
      expect(
        (
          await post(
            ctx,
            paths.knowledgeBase.qa,
            { question, answer: 'Yes', last_reviewed_at: daysAgo(days), owner_id: ownerId },
            token,
          )
        ).status,
      ).toBe(201)
    await item('Do you rotate encryption keys every year?', 400, owner.user.id)
    await item('Do you test backups every quarter?', 350, owner.user.id)
    await item('Do you keep an asset inventory?', 10, owner.user.id)
    // due, but owned by nobody: no one to tell
    await item('Do you screen new staff?', 400, null)
    // the other approver owns only a fresh answer
    await item('Do you review firewall rules?', 5, other.user.id)

    expect(await digest().send()).toBe(1)
    const mail = await smtp.waitFor(owner.email, { subject: /review/ })
    expect(mail.subject).toBe('2 library answers need your review')
    expect(mail.text).toContain('Do you rotate encryption keys every year? (stale since')
    expect(mail.text).toContain('Do you test backups every quarter? (due')
    expect(mail.text).not.toContain('asset inventory')
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/knowledge-base?tab=review`)
    expect(smtp.to(other.email)).toEqual([])

    // an admin turns the email off for the organisation
    const off = await post(ctx, paths.account.updateOrganization, { review_digest: false }, token)
    expect(off.status).toBe(200)
    expect(off.body.review_digest).toBe(false)
    smtp.clear()
    expect(await digest().send()).toBe(0)
  })
})
