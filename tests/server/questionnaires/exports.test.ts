import { readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import type { HubEvent } from '../../../server/http/event-hub.ts'
import { createLogger } from '../../../server/logger.ts'
import { createExportService } from '../../../server/modules/questionnaires/export.ts'
import { createQuestionnaireService } from '../../../server/modules/questionnaires/service.ts'
import { createDiskStorage } from '../../../server/storage/index.ts'
import { exported, finished } from '../../support/exports.ts'
import { type Body, questionnaire, rowsOf } from '../answering/helpers.ts'
import { get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * Exports as jobs (issue 37, S8): the request answers 202 with a run at once; the run is asked for
 * until its filled file is written. A run is its organisation's only; a failed build says why; a
 * job run twice for one run (a retry after its worker died) writes one filled file.
 */

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

async function person(app: TestApp, role: 'admin' | 'viewer' | 'contributor', orgId?: number) {
  const fixture = await insertUser(app.database, { role, orgId })
  return { ...fixture, id: fixture.user.id, token: (await signIn(app, fixture.email)).access }
}

/** A questionnaire of the admin's organisation with one answer written. */
async function answered(app: TestApp, token: string) {
  const q = await questionnaire(app, token, ['Do you encrypt backups?', 'Do you rotate keys?'])
  const [row] = await rowsOf(app, token, q.id)
  const edit = await post(app, Q.answer.edit(row.answer.id), { choice: 'Yes' }, token)
  expect(edit.status, JSON.stringify(edit.body)).toBe(200)
  return q as Body
}

const apiOf = (app: TestApp, token: string) => ({
  post: (route: string, body: unknown) => post(app, route, body, token),
  get: (route: string) => get(app, route, token),
})

/** The export service as the job registry builds it, on the test app's database and files. */
function exportService() {
  const storage = createDiskStorage(ctx.dataDir)
  const logger = createLogger('silent')
  const questionnaires = createQuestionnaireService({
    database: ctx.database,
    storage,
    logger,
    parseLimits: {},
  })
  return createExportService({ database: ctx.database, storage, questionnaires, logger })
}

describe('exports as jobs (issue 37, S8)', () => {
  it('answers 202 with the run at once; the run ends done with its filled file, and the viewers are told', async () => {
    const admin = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    const heard: HubEvent[] = []
    await ctx.hub.ready()
    const stop = ctx.hub.subscribe(`questionnaire:${q.id}`, (event) => heard.push(event))
    const started = await post(ctx, Q.exportOriginal, { questionnaire_id: q.id }, admin.token)
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    expect(started.body.export).toMatchObject({
      status: 'queued',
      progress: 0,
      label: 'Waiting to start',
      questionnaire_id: q.id,
      format: 'original',
      filled_file: null,
      error: null,
    })
    const { run } = await finished(apiOf(ctx, admin.token), started.body.export.id)
    expect(run).toMatchObject({
      id: started.body.export.id,
      status: 'done',
      progress: 100,
      label: null,
      error: null,
      filled_file: { name: 'q (filled).xlsx', format: 'original', answers_written: 1 },
    })
    // the run reads the same afterwards, and its file is the latest
    const again = await get(ctx, Q.exportRun(run.id), admin.token)
    expect(again.body.export).toEqual(run)
    const latest = await get(ctx, `${Q.checkFilledFile}?questionnaire_id=${q.id}`, admin.token)
    expect(latest.body.filled_file.id).toBe(run.filled_file?.id)
    // the questionnaire's stream heard that an export finished
    await new Promise((resolve) => setTimeout(resolve, 100))
    stop()
    expect(
      heard.filter((event) => event.type === 'change').map((event) => event.data),
    ).toContainEqual({
      kind: 'export',
      question_ids: [],
      by: admin.id,
      revision: null,
    })
  })

  it('refuses before any run as before: a wrong format, no questionnaire id, a questionnaire that does not exist', async () => {
    const admin = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    const wrong = await post(
      ctx,
      Q.exportBasic,
      { questionnaire_id: q.id, format: 'pdf' },
      admin.token,
    )
    expect(wrong.status).toBe(400)
    expect((await post(ctx, Q.exportOriginal, {}, admin.token)).status).toBe(400)
    const missing = await post(ctx, Q.exportOriginal, { questionnaire_id: 987654321 }, admin.token)
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe(QUESTIONNAIRE_TEXTS.notFound)
    expect((await get(ctx, Q.exportRun(987654321), admin.token)).body).toMatchObject({
      error: QUESTIONNAIRE_TEXTS.exportNotFound,
    })
    const { rows } = await ctx.database.pool.query(
      'select 1 from questionnaire_exports where org_id = $1',
      [admin.orgId],
    )
    expect(rows).toHaveLength(0)
  })

  it("answers another organisation's run with 404, and a viewer may export (its name in the activity)", async () => {
    const admin = await person(ctx, 'admin')
    const viewer = await person(ctx, 'viewer', admin.orgId)
    const stranger = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    const out = await exported(ctx, viewer.token, { questionnaire_id: q.id, format: 'csv' })
    expect(out.status).toBe(202)
    expect(out.run).toMatchObject({ status: 'done', format: 'csv' })
    const theirs = await get(ctx, Q.exportRun(out.run?.id as number), stranger.token)
    expect(theirs.status).toBe(404)
    expect(theirs.body.error).toBe(QUESTIONNAIRE_TEXTS.exportNotFound)
    expect(
      (await post(ctx, Q.exportOriginal, { questionnaire_id: q.id }, stranger.token)).status,
    ).toBe(404)
    const activity = await get(ctx, Q.activity(q.id), admin.token)
    expect(activity.body.results[0]).toMatchObject({
      kind: 'exported',
      by: { id: String(viewer.id) },
      summary: 'Exported q - answers.csv (1 answer written)',
    })
  })

  it('a build that fails ends the run failed with the reason, and writes no filled file', async () => {
    const admin = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    // the stored original is damaged: the worker that fills it refuses
    const { rows } = await ctx.database.pool.query<{ storage_key: string }>(
      'select storage_key from questionnaires where id = $1',
      [q.id],
    )
    writeFileSync(
      path.join(ctx.dataDir, 'files', String(admin.orgId), rows[0]?.storage_key as string),
      'this is not a workbook',
    )
    const out = await exported(ctx, admin.token, { questionnaire_id: q.id })
    expect(out.status).toBe(202)
    expect(out.run).toMatchObject({ status: 'failed', filled_file: null, label: null })
    // the worker's words, as the 422 of the export said them before it was a job
    expect(out.run?.error).toBe(
      'The file is damaged or not a valid Office document (no table of contents) and was not opened',
    )
    const files = await ctx.database.pool.query(
      'select 1 from filled_files where questionnaire_id = $1',
      [q.id],
    )
    expect(files.rows).toHaveLength(0)
  })

  it('is idempotent: the job run twice for one run (a retry after its worker died) writes one filled file', async () => {
    const admin = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    // the job's own service, as the registry builds it (no job system: it runs what it is given)
    const job = exportService()
    const runOf = async (status: 'queued' | 'running') => {
      const { rows } = await ctx.database.pool.query<{ id: string }>(
        `insert into questionnaire_exports (org_id, questionnaire_id, requested_by, format, status)
         values ($1, $2, $3, 'original', $4) returning id`,
        [admin.orgId, q.id, admin.id, status],
      )
      return Number(rows[0]?.id)
    }
    const filledOf = async (id: number) =>
      (
        await ctx.database.pool.query<{ status: string; filled_file_id: string | null }>(
          'select status, filled_file_id from questionnaire_exports where id = $1',
          [id],
        )
      ).rows[0]
    const filledCount = async () =>
      Number(
        (
          await ctx.database.pool.query<{ n: string }>(
            'select count(*) as n from filled_files where questionnaire_id = $1',
            [q.id],
          )
        ).rows[0]?.n,
      )

    // a run its dead worker had claimed ('running'), taken up by two attempts at once
    const cut = await runOf('running')
    await Promise.all([job.run(cut), job.run(cut)])
    expect(await filledOf(cut)).toMatchObject({ status: 'done' })
    expect(await filledCount()).toBe(1)
    // and once more after it was done: nothing more
    await job.run(cut)
    expect(await filledCount()).toBe(1)

    // a queued run, its job run twice in a row
    const queued = await runOf('queued')
    await job.run(queued)
    await job.run(queued)
    expect(await filledCount()).toBe(2)
    const first = await filledOf(cut)
    const second = await filledOf(queued)
    expect(second?.filled_file_id).not.toBe(first?.filled_file_id)
    // one activity line and one audit entry per run
    const activity = await ctx.database.pool.query(
      `select 1 from questionnaire_activity where questionnaire_id = $1 and kind = 'exported'`,
      [q.id],
    )
    expect(activity.rows).toHaveLength(2)
    const audit = await ctx.database.pool.query(
      `select 1 from audit_events where org_id = $1 and action = 'questionnaire.exported'`,
      [admin.orgId],
    )
    expect(audit.rows).toHaveLength(2)
    // no blob left behind by the attempt that lost: the original and the two filled files
    expect(readdirSync(path.join(ctx.dataDir, 'files', String(admin.orgId)))).toHaveLength(3)
  })
})

describe('exports cut off with their node', () => {
  it('are queued again by the reaper and finish; one unfinished for an hour fails saying to export again', async () => {
    const admin = await person(ctx, 'admin')
    const q = await answered(ctx, admin.token)
    // the reaper's service (here without a job system: what it queues runs in this process)
    const reaper = exportService()
    const { rows } = await ctx.database.pool.query<{ id: string }>(
      `insert into questionnaire_exports (org_id, questionnaire_id, requested_by, format, status, progress, created_at, updated_at)
       values ($1, $2, $3, 'csv', 'running', 40, now() - interval '5 minutes', now() - interval '5 minutes'),
              ($1, $2, $3, 'csv', 'running', 40, now() - interval '2 hours', now() - interval '2 hours')
       returning id`,
      [admin.orgId, q.id, admin.id],
    )
    const [cut, old] = rows.map((row) => Number(row.id))
    // a run that moved lately is left to the process that may still hold it
    expect(await reaper.recover(10 * 60_000)).toBe(0)
    expect(await reaper.recover(60_000)).toBe(1)
    const { run } = await finished(apiOf(ctx, admin.token), cut as number)
    expect(run).toMatchObject({ status: 'done', filled_file: { format: 'csv' } })
    const given = await get(ctx, Q.exportRun(old as number), admin.token)
    expect(given.body.export).toMatchObject({
      status: 'failed',
      error: QUESTIONNAIRE_TEXTS.exportCutOff,
      filled_file: null,
    })
  })
})

describe('exports without a job system', () => {
  const alone = withTestApp()

  it('runs the export in the process right after the request', async () => {
    const admin = await person(alone, 'admin')
    const q = await answered(alone, admin.token)
    const out = await exported(alone, admin.token, { questionnaire_id: q.id, format: 'xlsx' })
    expect(out.status).toBe(202)
    expect(out.run).toMatchObject({
      status: 'done',
      filled_file: { name: 'q - answers.xlsx', format: 'xlsx', answers_written: 1 },
    })
  })
})
