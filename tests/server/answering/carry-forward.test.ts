import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { CARRIED_PREFIX, QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, questionnaire, rowsOf, settle } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

/** Forty practices: one question each, in a template's words. */
const PRACTICES = [
  'rotate encryption keys',
  'review firewall rules',
  'scan container images',
  'test backup restores',
  'audit privileged access',
  'patch operating systems',
  'train developers securely',
  'monitor audit logs',
  'classify customer data',
  'vet new suppliers',
  'segment production networks',
  'enforce password complexity',
  'lock idle sessions',
  'sign software releases',
  'review source changes',
  'inventory hardware assets',
  'wipe retired disks',
  'escort datacentre visitors',
  'record incident timelines',
  'notify affected customers',
  'exercise continuity plans',
  'hash stored passwords',
  'pin dependency versions',
  'revoke leaver accounts',
  'approve production deployments',
  'separate duty roles',
  'filter outbound email',
  'sandbox email attachments',
  'harden browser settings',
  'restrict removable media',
  'encrypt laptop drives',
  'register mobile devices',
  'throttle login attempts',
  'retain security logs',
  'hunt active threats',
  'benchmark cloud configuration',
  'screen job candidates',
  'insure cyber risks',
  'publish security contacts',
  'reward bug reporters',
]
const templated = (practice: string) => `Do you ${practice} for all production systems?`
const REWORDED = [2, 7, 12, 20, 33]
const reworded = (practice: string) =>
  `Do you ${practice} for all production and staging systems at least annually?`
const NEW_QUESTION = 'Do you maintain a software bill of materials for each release?'

async function answered(token: string, questions: string[], approve: (index: number) => boolean) {
  const q = await questionnaire(ctx, token, questions)
  const rows = await rowsOf(ctx, token, q.id)
  for (const [index, row] of rows.entries()) {
    const edited = await post(
      ctx,
      Q.answer.edit(row.answer.id),
      { text: `Answer ${index + 1}, as approved.`, choice: index % 2 ? 'No' : 'Yes' },
      token,
    )
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    if (approve(index))
      expect((await post(ctx, Q.answer.approve(row.answer.id), {}, token)).status).toBe(200)
  }
  return q
}

describe('a questionnaire answered before (issue 28)', () => {
  it('is found by its questions, carries its approved answers forward and marks the reworded ones', async () => {
    const user = await member(ctx)
    // last year's: 40 questions, all approved but the 5th
    const earlier = await answered(user.token, PRACTICES.map(templated), (index) => index !== 4)
    const unrelated = await questionnaire(ctx, user.token, ['What is the capital of France?'])
    // this year's: 5 reworded, the last replaced by a new question
    const questions = PRACTICES.map((practice, index) =>
      REWORDED.includes(index) ? reworded(practice) : templated(practice),
    )
    questions[39] = NEW_QUESTION
    const q = await questionnaire(ctx, user.token, questions)

    const previous = await get(ctx, Q.previous(q.id), user.token)
    expect(previous.status).toBe(200)
    expect(previous.body.results.map((match: Body) => match.questionnaire_id)).not.toContain(
      unrelated.id,
    )
    expect(previous.body.results[0]).toMatchObject({
      questionnaire_id: earlier.id,
      score: 34 / 40,
      same_template: true,
      identical: 34,
      changed: 5,
      new: 1,
      removed: 1,
      approved: 33,
    })

    const carried = await post(
      ctx,
      Q.carryForward(q.id),
      { from_questionnaire_id: earlier.id },
      user.token,
    )
    expect(carried.status, JSON.stringify(carried.body)).toBe(200)
    expect(carried.body).toMatchObject({
      carried: 33,
      changed: 5,
      new: 1,
      removed: 1,
      removed_questions: [{ text: templated(PRACTICES[39] as string) }],
      generating: true,
    })
    await settle(ctx, user.token, q.id)
    const rows = await rowsOf(ctx, user.token, q.id)
    for (const [index, row] of rows.entries()) {
      if (REWORDED.includes(index)) {
        expect(row.answer.flags).toContain('question_changed')
        expect(row.carried_from).toMatchObject({
          questionnaire_id: earlier.id,
          kind: 'changed',
          previous_text: templated(PRACTICES[index] as string),
        })
        // drafted afresh (the library may hold the earlier approved answer), not carried
        expect(row.answer.note ?? '').not.toContain(CARRIED_PREFIX)
        expect(row.answer.status).not.toBe('approved')
      } else if (index === 39 || index === 4) {
        expect(row.answer.flags).toEqual([])
        expect(row.answer.status).not.toBe('approved')
        if (index === 39) expect(row.carried_from).toBeUndefined()
      } else {
        expect(row.answer).toMatchObject({
          text: `Answer ${index + 1}, as approved.`,
          choice: index % 2 ? 'No' : 'Yes',
          status: 'approved',
          flags: ['carried_forward'],
        })
        expect(row.answer.note).toContain(`${CARRIED_PREFIX} “`)
        expect(row.carried_from).toMatchObject({ kind: 'carried', questionnaire_id: earlier.id })
      }
    }
    // one operation in the history
    const operations = await get(ctx, Q.operations(q.id), user.token)
    expect(operations.body.operations.map((operation: Body) => operation.kind)).toContain(
      'carry_forward',
    )
  })

  it('never overwrites a person’s answer; without the right to approve, or past the review cycle, carried answers await approval', async () => {
    const admin = await member(ctx)
    const questions = PRACTICES.slice(0, 4).map(templated)
    const earlier = await answered(admin.token, questions, () => true)
    // the second answer's approval is 400 days old: past the organisation's 12-month cycle
    const earlierRows = await rowsOf(ctx, admin.token, earlier.id)
    await ctx.database.pool.query(
      `update questionnaire_answers set updated_at = now() - interval '400 days' where id = $1`,
      [earlierRows[1].answer.id],
    )
    const contributor = await insertUser(ctx.database, { role: 'contributor', orgId: admin.orgId })
    const contributorToken = (await signIn(ctx, contributor.email)).access
    const q = await questionnaire(ctx, admin.token, questions)
    const mine = (await rowsOf(ctx, admin.token, q.id))[0].answer.id
    await post(ctx, Q.answer.edit(mine), { text: 'Written here.', choice: 'No' }, admin.token)
    const carried = await post(
      ctx,
      Q.carryForward(q.id),
      { from_questionnaire_id: earlier.id },
      contributorToken,
    )
    expect(carried.status, JSON.stringify(carried.body)).toBe(200)
    expect(carried.body).toMatchObject({ carried: 3, changed: 0, new: 0, removed: 0 })
    const rows = await rowsOf(ctx, admin.token, q.id)
    expect(rows[0].answer).toMatchObject({ text: 'Written here.', status: 'edited' })
    for (const row of rows.slice(1)) {
      expect(row.answer.status).toBe('edited')
      expect(row.answer.flags).toEqual(['carried_forward'])
    }
    expect(rows[1].answer.note).toContain('past the review cycle')
  })

  it('refuses to start from itself, from another organisation’s questionnaire, or for a viewer', async () => {
    const user = await member(ctx)
    const stranger = await member(ctx)
    const viewer = await insertUser(ctx.database, { role: 'viewer', orgId: user.orgId })
    const viewerToken = (await signIn(ctx, viewer.email)).access
    const mine = await questionnaire(ctx, user.token, [templated('rotate encryption keys')])
    const theirs = await questionnaire(ctx, stranger.token, [templated('rotate encryption keys')])
    const self = await post(
      ctx,
      Q.carryForward(mine.id),
      { from_questionnaire_id: mine.id },
      user.token,
    )
    expect(self.status).toBe(400)
    expect(self.body.error).toBe(QUESTIONNAIRE_TEXTS.carryFromItself)
    const foreign = await post(
      ctx,
      Q.carryForward(mine.id),
      { from_questionnaire_id: theirs.id },
      user.token,
    )
    expect(foreign.status).toBe(404)
    expect(foreign.body.error).toBe(QUESTIONNAIRE_TEXTS.carrySourceNotFound)
    expect(
      (await post(ctx, Q.carryForward(theirs.id), { from_questionnaire_id: mine.id }, user.token))
        .status,
    ).toBe(404)
    expect((await get(ctx, Q.previous(theirs.id), user.token)).status).toBe(404)
    expect(
      (await post(ctx, Q.carryForward(mine.id), { from_questionnaire_id: 'x' }, user.token)).status,
    ).toBe(400)
    expect(
      (await post(ctx, Q.carryForward(mine.id), { from_questionnaire_id: theirs.id }, viewerToken))
        .status,
    ).toBe(403)
    // the other organisation's questionnaire is never offered
    expect((await get(ctx, Q.previous(mine.id), user.token)).body.results).toEqual([])
  })
})
