import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import {
  CALIBRATION_FILE,
  type CalibrationTable,
  calibrate,
  mapThrough,
  STATED,
} from '../../../server/answering/engine.ts'
import { leadingChoice, terms, toVocabulary } from '../../../server/answering/text.ts'
import { createLogger } from '../../../server/logger.ts'
import { createAnsweringService } from '../../../server/modules/answering/service.ts'
import { createQuestionnaireService } from '../../../server/modules/questionnaires/service.ts'
import { createDiskStorage } from '../../../server/storage/index.ts'
import { makePdf } from '../../fixtures/documents.ts'
import { get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { addQa, type Body, member, questionnaire, rowsOf, settle, uploadFile } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

// Matching and generation; the review operations on generated answers are in
// answering-review.test.ts.

describe('text matching', () => {
  it('folds synonyms, maps answers onto vocabularies and calibrates monotonically', () => {
    expect(terms('Is MFA required?')).toEqual(terms('Is multi-factor authentication required?'))
    expect(toVocabulary('Yes, for all staff', ['Yes', 'No', 'N/A'])).toBe('Yes')
    expect(toVocabulary('Not applicable', ['Yes', 'No', 'NA'])).toBe('NA')
    expect(toVocabulary('4) AWS', ['1) Self', '4) AWS'])).toBe('4) AWS')
    expect(toVocabulary('We use AWS', ['Yes', 'No'])).toBeNull()
    expect(leadingChoice('No. We do not.')).toBe('no')
    // issue 38: N/A is N/A, never the No its first letter spells
    for (const na of ['N/A', 'n/a', 'N/A - we host no card data', 'NA', 'N.A.', 'Not applicable.'])
      expect(leadingChoice(na), na).toBe('na')
    for (const no of ['No', 'N', 'no, never', 'Non-compliant'])
      expect(leadingChoice(no), no).toBe('no')
    expect(leadingChoice('Nagios monitors every host')).toBeNull()
    expect(leadingChoice('None of our staff')).toBeNull()
    expect(toVocabulary('N/A: no payment data', ['Yes', 'No', 'N/A'])).toBe('N/A')
    const points = [0.3, 0.5, 0.6, 0.75, 0.9, 1].map(calibrate)
    expect([...points].sort((a, b) => a - b)).toEqual(points)
  })
})

/** A document that states one practice: the disaster recovery plan's failover test. */
const uploadContinuity = async (token: string) =>
  uploadFile(
    ctx,
    token,
    'Continuity.pdf',
    await makePdf([
      [
        'Business continuity',
        'The disaster recovery plan is tested twice a year with a full failover to a second region.',
      ],
    ]),
  )

/** A library answer several tests start from. */
const ENCRYPTED_BACKUPS = {
  question: 'Do you encrypt backups?',
  answer: 'Yes',
  dropdown_value: 'Yes',
}

describe('generation with the library engine', () => {
  it('answers from the library and documents, abstains without evidence, and undoes as one operation', async () => {
    const user = await member(ctx)
    await addQa(
      ctx,
      user.token,
      {
        question: 'Do you enforce multi-factor authentication for administrators?',
        answer: 'Yes',
        dropdown_value: 'Yes',
      },
      {
        question: 'Is customer data encrypted at rest?',
        answer: 'Yes, every volume uses AES-256.',
      },
      {
        question: 'Do you allow customers to perform their own penetration tests?',
        answer: 'No, not on shared infrastructure.',
      },
    )
    await uploadContinuity(user.token)
    const q = await questionnaire(ctx, user.token, [
      'Is MFA required for administrator accounts?',
      'Is customer data encrypted at rest?',
      'How often is the disaster recovery plan tested with a failover?',
      'Do you run a public bug bounty programme for researchers?',
    ])
    const started = await post(ctx, Q.generate(q.id), {}, user.token)
    expect(started.status).toBe(202)
    expect(started.body.status).toBe('generating')
    const again = await post(ctx, Q.generate(q.id), {}, user.token)
    expect([202, 409]).toContain(again.status)
    const done = await settle(ctx, user.token, q.id)
    if (process.env.DEBUG_ANSWERS)
      console.log(
        JSON.stringify(
          (await rowsOf(ctx, user.token, q.id)).map((r) => [
            r.text,
            r.answer.status,
            r.answer.choice,
            r.answer.text.slice(0, 40),
          ]),
        ),
      )
    expect(done).toMatchObject({ status: 'ready', answered: 3 })
    const rows = await rowsOf(ctx, user.token, q.id)
    expect(rows[0].answer).toMatchObject({ status: 'generated', choice: 'Yes' })
    expect(rows[0].answer.confidence).toBeGreaterThan(0.5)
    expect(rows[0].answer.citations[0]).toMatchObject({ source: 'qa' })
    expect(rows[1].answer).toMatchObject({ choice: 'Yes', text: 'Every volume uses AES-256.' })
    // an extractive answer from the document: quoted, cited, no Yes or No of its own
    expect(rows[2].answer.text).toContain('tested twice a year')
    expect(rows[2].answer.choice).toBeNull()
    expect(rows[2].answer.citations[0]).toMatchObject({ source: 'file', title: 'Continuity.pdf' })
    expect(rows[2].answer.confidence).toBeLessThanOrEqual(0.6)
    // nothing in the knowledge base: it says so and invents nothing
    expect(rows[3].answer).toMatchObject({
      status: 'no_answer',
      text: '',
      choice: null,
      confidence: 0,
    })
    expect(rows[3].answer.note).toMatch(/no evidence/)

    const history = (await get(ctx, Q.operations(q.id), user.token)).body.operations as Body[]
    expect(history[0]).toMatchObject({ kind: 'generate', can_undo: true, questions: 4 })
    const undone = await post(ctx, Q.undo(q.id), {}, user.token)
    expect(undone.status).toBe(200)
    expect(undone.body.questionnaire.answered).toBe(0)
    expect(
      (await rowsOf(ctx, user.token, q.id)).every((row) => row.answer.status === 'pending'),
    ).toBe(true)
  })

  it('a Yes that rests on a document says so, for the reviewer', async () => {
    const user = await member(ctx)
    await uploadContinuity(user.token)
    const q = await questionnaire(ctx, user.token, [
      'Is the disaster recovery plan tested with a full failover twice a year?',
    ])
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    const [row] = await rowsOf(ctx, user.token, q.id)
    expect(row.answer).toMatchObject({
      status: 'generated',
      choice: 'Yes',
      note: STATED,
      drawn_from: 'document',
    })
    expect(row.answer.citations[0]).toMatchObject({ kind: 'document' })
    expect(row.answer.text).toContain('tested twice a year')
    // its confidence is what document answers measured in the evaluation (calibration.json),
    // not the raw score of the sentence
    const { kinds } = JSON.parse(readFileSync(CALIBRATION_FILE, 'utf8')) as {
      kinds: CalibrationTable
    }
    // a stating sentence scores 0.65-0.79 raw, read through the kind's points or those of the
    // kind on the question's shape ('stated/compound')
    const stated = Object.entries(kinds)
      .filter(([key]) => key === 'stated' || key.startsWith('stated/'))
      .map(([, points]) => points ?? [])
    expect(row.answer.confidence).toBeGreaterThanOrEqual(
      Math.min(...stated.map((points) => mapThrough(points, 0.65))) - 0.001,
    )
    expect(row.answer.confidence).toBeLessThanOrEqual(
      Math.max(...stated.map((points) => mapThrough(points, 0.79))) + 0.001,
    )
  })

  it('a Yes from a document carries the parts the question asks, each with its sentence, and what its band means', async () => {
    const user = await member(ctx)
    const scanning = 'We perform vulnerability scanning of all production systems every week.'
    await uploadFile(ctx, user.token, 'Scanning.txt', scanning)
    await addQa(ctx, user.token, ENCRYPTED_BACKUPS)
    const q = await questionnaire(ctx, user.token, [
      'Do you perform vulnerability scanning weekly?',
      'Is vulnerability scanning of production systems automated?',
      'Do you encrypt backups?',
    ])
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    const [weekly, automated, library] = await rowsOf(ctx, user.token, q.id)
    /** The sentence saying what the answer's own band means: its calibrated confidence in words. */
    const means = (answer: Body) =>
      expect(answer.assurance).toBe(
        `${answer.band[0].toUpperCase()}${answer.band.slice(1)}: right ${Math.round(answer.confidence * 100)} % of the time on questionnaires like this one.`,
      )
    expect(weekly.answer).toMatchObject({
      status: 'generated',
      choice: 'Yes',
      drawn_from: 'document',
    })
    expect(weekly.answer.parts).toEqual([
      { label: 'vulnerability scanning', kind: 'practice', sentence: scanning },
      { label: 'weekly', kind: 'frequency', sentence: scanning },
    ])
    means(weekly.answer)
    // a qualifier no cited sentence says: the reviewer sees which
    expect(automated.answer).toMatchObject({ choice: 'Yes', drawn_from: 'document' })
    expect(automated.answer.parts).toEqual([
      { label: 'vulnerability scanning', kind: 'practice', sentence: scanning },
      { label: 'automated', kind: 'qualifier', sentence: null },
    ])
    means(automated.answer)
    // a library answer answers the whole question: what its band means, and no parts
    expect(library.answer).toMatchObject({ choice: 'Yes', drawn_from: 'library' })
    expect(library.answer.parts).toBeUndefined()
    means(library.answer)
  })

  it('never overwrites an answer a person edited, and never duplicates rows when run twice (DU2)', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, ENCRYPTED_BACKUPS)
    const q = await questionnaire(ctx, user.token, [
      'Do you encrypt backups?',
      'Are backups encrypted?',
    ])
    const rows = await rowsOf(ctx, user.token, q.id)
    await post(
      ctx,
      Q.answer.edit(rows[0].answer.id),
      { choice: 'No', text: 'Not yet.' },
      user.token,
    )
    await post(ctx, Q.generate(q.id), {}, user.token)
    await settle(ctx, user.token, q.id)
    const after = await rowsOf(ctx, user.token, q.id)
    expect(after[0].answer).toMatchObject({ status: 'edited', choice: 'No', text: 'Not yet.' })
    expect(after[1].answer).toMatchObject({
      status: 'generated',
      choice: 'Yes',
      drawn_from: 'library',
    })
    // a person's answer is theirs: no machine band, nothing drawn from
    expect(after[0].answer).toMatchObject({ origin: 'person', band: null })
    expect(after[0].answer.drawn_from).toBeUndefined()
    const { rows: dupes } = await ctx.database.pool.query(
      `select question_id, rank, count(*) from questionnaire_answers where questionnaire_id = $1
        group by question_id, rank having count(*) > 1`,
      [q.id],
    )
    expect(dupes).toEqual([])
  })

  it('DU2: a generation cut off by a crash resumes from where it stopped, keeping saved answers', async () => {
    const user = await member(ctx)
    await addQa(ctx, user.token, ENCRYPTED_BACKUPS, {
      question: 'Do you rotate encryption keys?',
      answer: 'Yes',
      dropdown_value: 'Yes',
    })
    const q = await questionnaire(ctx, user.token, [
      'Do you encrypt backups?',
      'Do you rotate encryption keys?',
    ])
    const rows = await rowsOf(ctx, user.token, q.id)
    // the state a crash leaves: generating, the first answer saved, the second still pending
    const { rows: ops } = await ctx.database.pool.query<{ id: string }>(
      `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count, answered_count)
       values ($1, $2, 'generate', 'Generated answers: 1 of 1 questions answered', 1, 1) returning id`,
      [user.orgId, q.id],
    )
    await ctx.database.pool.query(
      `update questionnaire_answers set status = 'generated', choice = 'Yes', text = 'Saved before the crash', confidence = 0.9 where id = $1`,
      [rows[0].answer.id],
    )
    await ctx.database.pool.query(
      `update questionnaires set status = 'generating', updated_at = now() - interval '10 minutes' where id = $1`,
      [q.id],
    )
    const questionnaires = createQuestionnaireService({
      database: ctx.database,
      storage: createDiskStorage(mkdtempSync(path.join(tmpdir(), 'quire-du2-'))),
      logger: createLogger('silent'),
      parseLimits: {},
    })
    const answering = createAnsweringService({
      database: ctx.database,
      logger: createLogger('silent'),
      questionnaires,
    })
    // a run still alive on another node holds the lease: recovery leaves it be (issue 14 fix 6)
    const live = await ctx.database.pool.connect()
    await live.query('select pg_advisory_lock(7231, $1::int)', [q.id])
    expect(await answering.recover(0)).toBe(0)
    await live.query('select pg_advisory_unlock(7231, $1::int)', [q.id])
    live.release()
    expect(await answering.recover(60_000)).toBe(1)
    const done = await settle(ctx, user.token, q.id)
    expect(done).toMatchObject({ status: 'ready', answered: 2 })
    const after = await rowsOf(ctx, user.token, q.id)
    expect(after[0].answer.text).toBe('Saved before the crash')
    expect(after[1].answer).toMatchObject({
      status: 'generated',
      choice: 'Yes',
      drawn_from: 'library',
    })
    // the draft saved before the crash is the machine's still, citing nothing
    expect(after[0].answer).toMatchObject({ origin: 'machine' })
    expect(after[0].answer.drawn_from).toBeUndefined()
    // the history counts the whole run, before and after the crash (issue 14 fix 6)
    const { rows: op } = await ctx.database.pool.query<{
      question_count: number
      answered_count: number
      summary: string
    }>(
      'select question_count, answered_count, summary from questionnaire_operations where id = $1',
      [ops[0]?.id],
    )
    expect(op[0]).toEqual({
      question_count: 2,
      answered_count: 2,
      summary: 'Generated answers: 2 of 2 questions answered',
    })
  })

  it('runs one generation per questionnaire: a parallel call gets 409 with the running id (issue 14 fix 10)', async () => {
    const user = await member(ctx)
    const q = await questionnaire(
      ctx,
      user.token,
      Array.from({ length: 30 }, (_, i) => `Do you review control ${i + 1} every year?`),
    )
    const calls = await Promise.all(
      Array.from({ length: 5 }, () => post(ctx, Q.generate(q.id), {}, user.token)),
    )
    const started = calls.filter((res) => res.status === 202)
    const refused = calls.filter((res) => res.status === 409)
    expect(started).toHaveLength(1)
    expect(refused).toHaveLength(4)
    const { rows: ops } = await ctx.database.pool.query<{ id: string }>(
      `select id from questionnaire_operations where questionnaire_id = $1 and kind = 'generate'`,
      [q.id],
    )
    expect(ops).toHaveLength(1)
    for (const res of refused)
      expect(res.body).toMatchObject({
        error: 'Answers are already being generated',
        code: 'conflict',
        job_id: Number(ops[0]?.id),
      })
    expect((await settle(ctx, user.token, q.id)).status).toBe('ready')
  })

  it("answers only from the requester's organisation (LL1)", async () => {
    const a = await member(ctx)
    const b = await member(ctx)
    await addQa(ctx, b.token, {
      question: 'What is the canary phrase for tenant B?',
      answer: 'CANARY-B-7731',
    })
    const q = await questionnaire(ctx, a.token, ['What is the canary phrase for tenant B?'])
    await post(ctx, Q.generate(q.id), {}, a.token)
    await settle(ctx, a.token, q.id)
    const [row] = await rowsOf(ctx, a.token, q.id)
    expect(JSON.stringify(row)).not.toContain('CANARY-B-7731')
    expect(row.answer.status).toBe('no_answer')
  })
})
