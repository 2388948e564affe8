import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { inTransaction } from '../../../server/db/index.ts'
import { post, withMailApp } from '../auth/helpers.ts'
import { notificationService, team as teamOf } from './team.ts'

/**
 * Issue 37: what mention and comment emails carry, and how many. S2: past the first few in a
 * short window a person's mention emails are gathered into one digest at the window's end (by
 * whichever node comes first: the database holds them). S4: the words someone wrote are quoted,
 * under their name, never in the subject, and their links are not made clickable.
 */

const Q = paths.questionnaires
const WINDOW_MS = 4_000
const gathering = { digestAfter: 3, digestWindowMs: WINDOW_MS }
const { ctx, smtp } = withMailApp({
  jobs: true,
  comments: { ...gathering, commentsPerMinute: 1_000, mentionsPerMinute: 1_000 },
})

/** Another API node on the same database: its deliveries race this app's. */
const otherNode = () => notificationService(ctx, { gathering })

async function team() {
  const found = await teamOf(ctx, [
    'Do you encrypt data at rest?',
    'Do you scan for malware?',
    'Do you rotate keys?',
  ])
  await ctx.database.pool.query(`update questionnaires set name = 'CAIQ v4' where id = $1`, [
    found.q.id,
  ])
  return found
}

const mention = (questionId: number, by: { token: string }, ids: number[], body: string) =>
  post(ctx, Q.comments(questionId), { body, mentions: ids }, by.token)
const settle = async (ms = 300) => {
  await ctx.mailer.idle()
  await new Promise((r) => setTimeout(r, ms))
}

describe('a flood of mentions becomes one digest (issue 37, S2)', () => {
  it('sends the first 3 as they come and gathers the rest into one email at the window’s end', async () => {
    const { admin, approver, contributor, rows } = await team()
    smtp.clear()
    const started = Date.now()
    for (let i = 1; i <= 6; i++) {
      const res = await mention(rows[i % 3].id, admin, [approver.id], `Note ${i} for you`)
      expect(res.status).toBe(201)
    }
    // someone mentioned twice hears of each at once
    for (let i = 1; i <= 2; i++)
      await mention(rows[0].id, admin, [contributor.id], `Only ${i} for the contributor`)
    await smtp.waitFor(approver.email, { nth: 3 })
    await smtp.waitFor(contributor.email, { nth: 2 })
    await settle()
    expect(Date.now() - started).toBeLessThan(WINDOW_MS)
    const singles = smtp.to(approver.email)
    expect(singles.map((mail) => mail.text.match(/Note \d/)?.[0])).toEqual([
      'Note 1',
      'Note 2',
      'Note 3',
    ])
    // the app shows every one at once
    const inbox = await ctx.database.pool.query(
      'select count(*)::int as n from notifications where user_id = $1 and in_app',
      [approver.id],
    )
    expect(inbox.rows[0].n).toBe(6)

    // nothing more asks for a delivery: this node's timer sends the digest when the window ends
    const digest = await smtp.waitFor(approver.email, { nth: 4, timeoutMs: WINDOW_MS + 5_000 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW_MS - 200)
    await settle(600)
    expect(smtp.to(approver.email)).toHaveLength(4)
    expect(smtp.to(contributor.email)).toHaveLength(2)
    expect(digest.subject).toBe('3 new mentions and comments for you on Quire')
    for (const i of [4, 5, 6]) expect(digest.text).toContain(`> Note ${i} for you`)
    expect(digest.text).toContain('Fix Ture mentioned you on SEC-02 of CAIQ v4')
    expect(digest.text).toContain('Fix Ture wrote:')
    expect(digest.text).not.toMatch(/Note [123]/)
    expect(digest.html.match(/<blockquote/g)).toHaveLength(3)
    expect(digest.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')

    // nothing is left to send: a later delivery by any node adds nothing
    await otherNode().deliver()
    await settle()
    expect(smtp.to(approver.email)).toHaveLength(4)
    const left = await ctx.database.pool.query(
      `select count(*)::int as n from notifications where user_id = $1 and email <> 'sent'`,
      [approver.id],
    )
    expect(left.rows[0].n).toBe(0)
  })
})

describe('the digest across nodes (issue 37, S2)', () => {
  it('a node that dies after holding emails leaves them to any other node, and none sends twice', async () => {
    const { admin, approver, orgId, q, rows } = await team()
    smtp.clear()
    // a node writes 5 mentions of the approver and dies before it delivers anything
    const crashed = otherNode()
    await inTransaction(ctx.database.pool, async (client) => {
      for (let i = 1; i <= 5; i++)
        await crashed.notify(client, [
          {
            orgId,
            userId: approver.id,
            kind: 'mentioned',
            text: `Fix Ture mentioned you on SEC-01 of CAIQ v4`,
            quote: `Crash note ${i}`,
            actorId: admin.id,
            questionnaireId: q.id,
            questionId: rows[0].id,
          },
        ])
    })
    const states = await ctx.database.pool.query(
      'select email from notifications where user_id = $1 order by id',
      [approver.id],
    )
    expect(states.rows.map((row) => row.email)).toEqual([
      'pending',
      'pending',
      'pending',
      'held',
      'held',
    ])
    // two live nodes deliver over and over, racing each other, until the window has ended
    const nodes = [otherNode(), otherNode()]
    let racing = true
    const race = Promise.all(
      nodes.map(async (node) => {
        while (racing) {
          await node.deliver()
          await new Promise((r) => setTimeout(r, 50))
        }
      }),
    )
    try {
      await smtp.waitFor(approver.email, { nth: 4, timeoutMs: WINDOW_MS + 5_000 })
      await new Promise((r) => setTimeout(r, 500))
    } finally {
      racing = false
      await race
    }
    await settle()
    const digest = smtp.to(approver.email)[3]
    expect(smtp.to(approver.email)).toHaveLength(4)
    expect(digest?.subject).toBe('2 new mentions and comments for you on Quire')
    expect(digest?.text).toContain('> Crash note 4')
    expect(digest?.text).toContain('> Crash note 5')
  })
})

describe('emails quote what people wrote (issue 37, S4)', () => {
  const phishing =
    'Your Quire password expires today.\nReset it at https://evil.example/reset?u=1 before 5pm <b>now</b>'

  it('quotes a mention under its author’s name, keeps the words out of the subject and links unclickable', async () => {
    const { admin, approver, rows } = await team()
    smtp.clear()
    expect((await mention(rows[1].id, admin, [approver.id], phishing)).status).toBe(201)
    const mail = await smtp.waitFor(approver.email)
    expect(mail.subject).toBe('Fix Ture mentioned you on CAIQ v4')
    for (const word of ['password', 'evil', 'Reset']) expect(mail.subject).not.toContain(word)

    expect(mail.text).toContain(
      [
        'Fix Ture wrote:',
        '> Your Quire password expires today.',
        '> Reset it at https://evil.example/reset?u=1 before 5pm <b>now</b>',
      ].join('\n'),
    )
    // the HTML quotes it in a styled block, escaped, its address shown but not a link
    expect(mail.html).toMatch(/<blockquote style="[^"]*border-left[^"]*">/)
    expect(mail.html).toContain('Fix Ture wrote:')
    expect(mail.html).toContain('&lt;b&gt;now&lt;/b&gt;')
    expect(mail.html).toContain('evil.example/reset?u=1')
    expect(mail.html).not.toMatch(/<a [^>]*evil\.example/)
    const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1])
    expect(hrefs.length).toBeGreaterThan(0)
    for (const href of hrefs) expect(href).toMatch(/^http:\/\/quire\.test:3000\//)
  })

  it('keeps a reviewer’s comment out of the subject of the changes-requested email, and quotes it under their name', async () => {
    const { admin, approver, contributor, q, rows } = await team()
    const assigned = await post(
      ctx,
      Q.assign(q.id),
      { assignee_id: contributor.id, question_ids: [rows[0].id] },
      admin.token,
    )
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
    await smtp.waitFor(contributor.email, { subject: /assigned you/ })
    const review = await post(
      ctx,
      Q.review(rows[0].id),
      { action: 'request_changes', comment: 'Click https://evil.example/fix to fix this' },
      approver.token,
    )
    expect(review.status, JSON.stringify(review.body)).toBe(200)
    const mail = await smtp.waitFor(contributor.email, { subject: /changes/ })
    expect(mail.subject).toBe('Fix Ture asked for changes on CAIQ v4')
    expect(mail.subject).not.toContain('evil')
    expect(mail.html).not.toMatch(/<a [^>]*evil\.example/)
    // the words are the reviewer's, quoted, not part of Quire's own sentence
    expect(mail.text).toContain('wrote:')
    expect(mail.text).toMatch(/^> Click https:\/\/evil\.example\/fix to fix this$/m)
    expect(mail.text).not.toMatch(/CAIQ v4: Click/)
    expect(mail.html).toContain('<blockquote')
  })
})
