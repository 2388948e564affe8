import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { libraryHealthSchema } from '../../../contract/questionnaires.ts'
import { DAY, get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

const ctx = withTestApp()

async function member(orgId?: number) {
  const fixture = await insertUser(ctx.database, { role: 'admin', orgId })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()

/** A questionnaire of the organisation with one question per status, each answer flagged or not. */
async function answers(orgId: number, rows: { status: string; changed: boolean }[]) {
  const { pool } = ctx.database
  const q = await pool.query<{ id: string }>(
    `insert into questionnaires (org_id, name, kind, mime, storage_key)
     values ($1, 'Vendor review.xlsx', 'xlsx', 'application/octet-stream', gen_random_uuid()) returning id`,
    [orgId],
  )
  const questionnaireId = q.rows[0]?.id
  const tab = await pool.query<{ id: string }>(
    `insert into questionnaire_tabs (org_id, questionnaire_id, name, position)
     values ($1, $2, 'Sheet1', 0) returning id`,
    [orgId, questionnaireId],
  )
  for (const [index, row] of rows.entries()) {
    const question = await pool.query<{ id: string }>(
      `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, text, match_key)
       values ($1, $2, $3, $4, $5, $5) returning id`,
      [orgId, questionnaireId, tab.rows[0]?.id, index, `Question ${index}?`],
    )
    await pool.query(
      `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, status, source_change)
       values ($1, $2, $3, 0, 'Yes.', $4, $5)`,
      [
        orgId,
        questionnaireId,
        question.rows[0]?.id,
        row.status,
        row.changed ? JSON.stringify({ before: 'then', after: 'now' }) : null,
      ],
    )
  }
}

describe('library health counts the workload (issue 28)', () => {
  it('counts stale and due Q&A items, source-changed answers and conflicts, of the caller’s organisation only', async () => {
    const admin = await member()
    const other = await member()
    const item = (token: string, body: Record<string, unknown>) =>
      post(ctx, paths.knowledgeBase.qa, body, token)
    // two stale, one due, one fresh
    await item(admin.token, {
      question: 'Do you run annual penetration tests?',
      answer: 'Yes.',
      last_reviewed_at: daysAgo(400),
    })
    await item(admin.token, {
      question: 'Is there a business continuity plan?',
      answer: 'Yes.',
      last_reviewed_at: daysAgo(380),
    })
    await item(admin.token, {
      question: 'Are backups tested?',
      answer: 'Yes.',
      last_reviewed_at: daysAgo(50),
      review_cycle_days: 60,
    })
    // a conflict: the same question answered Yes and No (both fresh)
    await item(admin.token, { question: 'Is data encrypted at rest?', answer: 'Yes.' })
    await item(admin.token, { question: 'Is data encrypted at rest?', answer: 'No.' })
    // flagged answers count while they are drafts or approved, not once cleared or pending
    await answers(admin.orgId, [
      { status: 'generated', changed: true },
      { status: 'edited', changed: true },
      { status: 'approved', changed: true },
      { status: 'pending', changed: true },
      { status: 'approved', changed: false },
    ])
    // another organisation's workload is not ours
    await item(other.token, {
      question: 'Is MFA enforced?',
      answer: 'Yes.',
      last_reviewed_at: daysAgo(500),
    })
    await answers(other.orgId, [{ status: 'approved', changed: true }])

    const health = await get(ctx, paths.knowledgeBase.health, admin.token)
    expect(health.status, JSON.stringify(health.body)).toBe(200)
    expect(health.body.counts).toEqual({ stale: 2, due: 1, source_changed: 3, conflicts: 1 })
    expect(
      health.body.groups.filter((group: { kind: string }) => group.kind === 'conflict'),
    ).toHaveLength(1)

    const theirs = await get(ctx, paths.knowledgeBase.health, other.token)
    expect(theirs.body.counts).toEqual({ stale: 1, due: 0, source_changed: 1, conflicts: 0 })
  })

  it('an answer without counts (an older server) still reads, with nothing counted', () => {
    expect(libraryHealthSchema.parse({ groups: [] }).counts).toEqual({
      stale: 0,
      due: 0,
      source_changed: 0,
      conflicts: 0,
    })
  })
})
