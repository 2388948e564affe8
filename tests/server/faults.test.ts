import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { paths } from '../../contract/paths.ts'
import { freePort } from '../../server/db/embedded.ts'
import { exportedVia, finished } from '../support/exports.ts'
import {
  analysed,
  type Body,
  backupQuestions,
  settled,
  sleep,
  until,
} from '../support/process-api.ts'
import { kill, processSuite, type ServerChild } from '../support/server-process.ts'

/**
 * The fault suite (issue 14, DU1-DU3): the real server killed with SIGKILL in the middle of
 * analysis, generation and export, and its PostgreSQL killed under it. After a restart nothing is
 * lost, duplicated or half-written, and every job ends done or failed with a reason. Uploads cut
 * off mid-stream are durability.test.ts's. Bounded: each case waits at most tens of seconds.
 */

const Q = paths.questionnaires
const procs = processSuite('faults')
const { start, startHealthy, waitHealthy, query, signedIn, postmasterPid, databaseUrl } = procs

describe('faults', () => {
  it('DU2 (issue 14 fix 6): SIGKILL mid-generation resumes at once with honest progress, and the history counts the whole run', async () => {
    const port = await freePort()
    let server = await startHealthy(port)
    const { api } = await signedIn(port, 'generation@example.com')
    const added = await api.post(paths.knowledgeBase.qa, {
      question: 'Do you encrypt backups at rest?',
      answer: 'Yes, with AES-256.',
    })
    expect(added.status).toBe(201)
    const total = 3000
    const q = await analysed(api, 'Backups.csv', backupQuestions(total))
    expect(q.questions).toBe(total)
    const started = await api.post(Q.generate(q.id))
    expect(started.status).toBe(202)
    // kill it part-way
    const before = await until('generation to be under way', async () => {
      const res = await api.get(Q.get(q.id))
      return res.body.progress >= 10 ? (res.body as Body) : undefined
    })
    await kill(server)
    expect(before.status).toBe('generating')
    expect(before.progress).toBeLessThan(100)

    server = await startHealthy(port)
    // the owner's session survives the restart (the same token, the client holds nothing else)
    const restarted = Date.now()
    // progress never goes back: what was saved counts from the first look after the restart
    const first = await api.get(Q.get(q.id))
    if (first.body.status === 'generating')
      expect(first.body.progress).toBeGreaterThanOrEqual(before.progress)
    const done = await settled(api, q.id, 60_000)
    // resumed at once, not after a stale timeout of minutes
    expect(Date.now() - restarted).toBeLessThan(45_000)
    expect(done).toMatchObject({ status: 'ready', answered: total })
    const history = (await api.get(Q.operations(q.id))).body.operations as Body[]
    const generate = history.filter((op) => op.kind === 'generate')
    expect(generate).toHaveLength(1)
    expect(generate[0]).toMatchObject({
      questions: total,
      summary: `Generated answers: ${total.toLocaleString('en')} of ${total.toLocaleString('en')} questions answered`,
    })
    const dupes = await query(
      `select question_id, rank, count(*) from questionnaire_answers where questionnaire_id = $1
        group by question_id, rank having count(*) > 1`,
      [q.id],
    )
    expect(dupes).toEqual([])
    await kill(server)
  }, 180_000)

  it('SIGKILL mid-analysis and mid-export: every analysis ends ready or failed with a reason, every export run is finished after the restart (issue 37), no half-written file', async () => {
    const port = await freePort()
    let server = await startHealthy(port)
    const { api } = await signedIn(port, 'export@example.com')
    const q = await analysed(api, 'Export me.csv', backupQuestions(2000))
    // kills at random points of analyses (just uploaded) and of exports in flight: an export is a
    // job (issue 37), its request answered at once, so the node dies while its run is queued or
    // being written
    const uploaded: number[] = []
    const runs: number[] = []
    for (let round = 0; round < 4; round++) {
      const res = await api.upload(`Analyse ${round}.csv`, backupQuestions(4000))
      expect(res.status).toBe(201)
      uploaded.push(res.body.id)
      const exporting = await api.post(Q.exportOriginal, { questionnaire_id: q.id })
      expect(exporting.status, JSON.stringify(exporting.body)).toBe(202)
      runs.push(exporting.body.export.id)
      await sleep(Math.floor(Math.random() * 300))
      await kill(server)
      server = await startHealthy(port)
    }
    for (const id of uploaded) {
      const done = await settled(api, id)
      if (done.status === 'failed') expect(done.error).toMatch(/\w/)
      else expect(done.questions).toBe(4000)
    }
    // no export is lost with its node: every run the server accepted is finished after the
    // restarts, each with a filled file of its own (a retried job writes none twice)
    const filledIds: number[] = []
    for (const id of runs) {
      const { run } = await finished(api, id)
      expect(run, JSON.stringify(run)).toMatchObject({ status: 'done', progress: 100 })
      filledIds.push(run.filled_file?.id as number)
    }
    expect(new Set(filledIds).size).toBe(runs.length)
    const [counted] = await query<{ count: string }>(
      'select count(*) as count from filled_files where questionnaire_id = $1',
      [q.id],
    )
    expect(Number(counted?.count)).toBe(runs.length)
    // every filled file that exists is whole and can be downloaded; nothing is left half-written
    const files = await query<{
      id: string
      org_id: string
      storage_key: string
      size_bytes: string
    }>('select id, org_id, storage_key, size_bytes from filled_files')
    for (const file of files) {
      const blob = readFileSync(
        path.join(procs.dataDir, 'files', String(file.org_id), file.storage_key),
      )
      expect(blob.length).toBe(Number(file.size_bytes))
      expect(blob.toString('utf8', 0, 18)).toBe('ID,Question,Answer')
    }
    const exported = await exportedVia(api, { questionnaire_id: q.id })
    expect(exported.run?.status).toBe('done')
    const tmp = path.join(procs.dataDir, 'tmp')
    const leftovers = existsSync(tmp)
      ? readdirSync(tmp).filter((name) => Number(name.split('-')[0]) !== server.child.pid)
      : []
    expect(leftovers).toEqual([])
    await kill(server)
  }, 180_000)

  it('DU1: a questionnaire left queued by a killed server, its job lost with it, is analysed at the next start, not minutes later', async () => {
    const port = await freePort()
    let server = await startHealthy(port)
    const { api } = await signedIn(port, 'queued@example.com')
    const q = await analysed(api, 'Queued.csv', backupQuestions(50))
    await kill(server)
    // as a crash between queueing a (re-)analysis and its job running leaves it: the row queued a
    // moment ago, no job that will run it
    await query(`update questionnaires set status = 'queued', updated_at = now() where id = $1`, [
      q.id,
    ])
    await query(`delete from pgboss.job where name = 'questionnaire.analyse'`)
    server = await startHealthy(port)
    // the reaper's periodic pass comes every five minutes: this must not wait for it
    const done = await settled(api, q.id, 20_000)
    expect(done).toMatchObject({ status: 'ready', questions: 50 })
    await kill(server)
  }, 120_000)

  it('scale-out: two API nodes and two workers on one PostgreSQL; a run never executes twice, and a killed worker has its run taken over', async () => {
    const [portA, portB] = [await freePort(), await freePort()]
    const apiA = start(portA, { env: { WORKERS: 'false' } })
    await waitHealthy(portA)
    const apiB = start(portB, { env: { WORKERS: 'false', DATABASE_URL: databaseUrl() } })
    const workers = [0, 1].map(() => start(0, { entry: 'server/worker.ts' }))
    await waitHealthy(portB)
    const { api: a, at } = await signedIn(portA, 'scale@example.com')
    const b = at(portB)
    expect(
      (
        await b.post(paths.knowledgeBase.qa, {
          question: 'Do you encrypt backups at rest?',
          answer: 'Yes, with AES-256.',
        })
      ).status,
    ).toBe(201)
    // uploaded through one node, analysed by a worker, read through the other
    const total = 3000
    const uploaded = await b.upload('Scale.csv', backupQuestions(total))
    expect(uploaded.status).toBe(201)
    const q = await settled(a, uploaded.body.id)
    expect(q).toMatchObject({ status: 'ready', questions: total })
    expect((await a.post(Q.generate(q.id))).status).toBe(202)
    // the other node refuses a second run of the same questionnaire
    expect((await b.post(Q.generate(q.id))).status).toBe(409)
    await until('generation to be under way', async () => {
      const res = await b.get(Q.get(q.id))
      return res.body.progress >= 10 ? true : undefined
    })
    // the process holding the run's lease is one of the workers: kill it
    const [holder] = await query<{ application_name: string }>(
      `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.classid = 7231 and l.objid = $1 and l.granted`,
      [q.id],
    )
    const pid = Number(holder?.application_name.split(':')[1])
    const victim = workers.find((worker) => worker.child.pid === pid)
    expect(victim, `lease held by ${holder?.application_name}`).toBeDefined()
    await kill(victim as ServerChild)
    const done = await settled(a, q.id, 90_000)
    expect(done).toMatchObject({ status: 'ready', answered: total })
    // one run: its batches counted once each, whichever worker wrote them
    const [operation] = await query<{ question_count: number; answered_count: number }>(
      `select question_count, answered_count from questionnaire_operations
        where questionnaire_id = $1 and kind = 'generate'`,
      [q.id],
    )
    expect(operation).toEqual({ question_count: total, answered_count: total })
    for (const node of [apiA, apiB, ...workers]) if (node.child.exitCode === null) await kill(node)
  }, 180_000)

  it('issue 14 fix 4: a killed PostgreSQL answers 503 with Retry-After while down, is restarted, and nothing is lost', async () => {
    const port = await freePort()
    // durable commits, as in production: a killed postmaster must not take committed work with it
    const server = await startHealthy(port, { env: { EMBEDDED_PG_FSYNC: 'true' }, capture: true })
    const { api } = await signedIn(port, 'postgres@example.com')
    const q = await analysed(api, 'Before.csv', backupQuestions(5))
    const pid = postmasterPid()
    expect(pid).toBeTruthy()
    process.kill(pid as number, 'SIGKILL')
    const seen: { status: number; retryAfter: string | null }[] = []
    const poll = async () => {
      const res = await api.get(Q.list)
      seen.push({ status: res.status, retryAfter: res.headers.get('retry-after') })
      return res.status
    }
    // a killed postmaster's backends may answer a query or two before they notice and exit:
    // first wait for the outage to show, then for the restart
    await until(
      () => `the API to notice the outage (server log: ${server.output().slice(-3000)})`,
      async () => ((await poll()) !== 200 ? true : undefined),
      20_000,
    )
    await until(
      () => `the API to answer again (server log: ${server.output().slice(-3000)})`,
      async () => ((await poll()) === 200 ? true : undefined),
      45_000,
    )
    const statuses = new Set(seen.map((s) => s.status))
    expect(statuses.has(500)).toBe(false)
    const unavailable = seen.filter((s) => s.status === 503)
    expect(unavailable.length).toBeGreaterThan(0)
    expect(unavailable.every((s) => s.retryAfter === '5')).toBe(true)
    expect([...statuses].every((status) => status === 200 || status === 503)).toBe(true)
    // the data from before is there, and writes work again
    expect((await api.get(Q.get(q.id))).body).toMatchObject({ status: 'ready', questions: 5 })
    await analysed(api, 'After.csv', backupQuestions(3))
    expect(postmasterPid()).not.toBe(pid)
    await kill(server)
  }, 120_000)
})
