import { describe, expect, it } from 'vitest'
import { paths } from '../../contract/paths.ts'
import { freePort } from '../../server/db/embedded.ts'
import { finished } from '../support/exports.ts'
import {
  analysed,
  type Body,
  backupQuestions,
  type Client,
  settled,
  sleep,
  until,
} from '../support/process-api.ts'
import { processSuite } from '../support/server-process.ts'

/**
 * Issue 37, S6: the database may go away at any moment. Every connection of the running
 * processes is ended (`pg_terminate_backend`), or the database itself restarts, while people edit
 * answers and a generation runs: every process stays up, answers again within seconds, loses no
 * acknowledged edit and finishes the generation.
 */

const Q = paths.questionnaires
const procs = processSuite('outage')
const { start, startHealthy, waitHealthy, query, signedIn, postmasterPid, databaseUrl } = procs

/** Ends every connection to the database but the one asking. */
const terminateEveryone = () =>
  query<{ ended: boolean }>(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity
      where pid <> pg_backend_pid() and backend_type = 'client backend'`,
  )

/**
 * `writers` people each editing their own answer again and again until `stop()`: what each
 * edit said, and which were acknowledged (200). Failed calls (503 while the database is away)
 * are tried again, as the page does.
 */
function editors(api: Client, answerIds: number[]) {
  let stopped = false
  const acknowledged = new Map<number, string>()
  const attempted = new Map<number, string[]>()
  const statuses: number[] = []
  const loops = answerIds.map(async (answerId, writer) => {
    for (let round = 0; !stopped; round++) {
      const text = `Writer ${writer} says yes, round ${round}.`
      attempted.set(answerId, [...(attempted.get(answerId) ?? []), text])
      const res = await api.post(Q.answer.edit(answerId), { text }).catch(() => null)
      statuses.push(res?.status ?? 0)
      if (res?.status === 200) acknowledged.set(answerId, text)
      else await sleep(100)
    }
  })
  return {
    acknowledged,
    attempted,
    statuses,
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}

/** Every acknowledged edit is there (or a later attempt of the same writer, committed as the connection died). */
async function expectNoEditLost(
  api: Client,
  questionnaireId: number,
  edits: ReturnType<typeof editors>,
) {
  const rows = (await api.get(Q.answers(questionnaireId))).body.questions as Body[]
  const byAnswer = new Map(rows.map((row) => [row.answer.id as number, row.answer]))
  expect(edits.acknowledged.size).toBeGreaterThan(0)
  for (const [answerId, text] of edits.acknowledged) {
    const now = byAnswer.get(answerId)
    const tried = edits.attempted.get(answerId) ?? []
    expect(tried.slice(tried.indexOf(text))).toContain(now?.text)
    expect(now?.status).toBe('edited')
  }
}

async function setUp(port: number, email: string, total: number) {
  const { api } = await signedIn(port, email)
  const added = await api.post(paths.knowledgeBase.qa, {
    question: 'Do you encrypt backups at rest?',
    answer: 'Yes, with AES-256.',
  })
  expect(added.status).toBe(201)
  const q = await analysed(api, 'Outage.csv', backupQuestions(total))
  const rows = (await api.get(Q.answers(q.id))).body.questions as Body[]
  // the last questions are the people's: generation reaches them last
  const mine = rows.slice(-20).map((row) => row.answer.id as number)
  return { api, q, mine }
}

const healthy = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null)
  return res?.status === 200
}

describe('the database goes away under work in flight (issue 37, S6)', () => {
  it('every connection ended while 20 people edit, a generation and an export run: the server stays up, answers again, loses nothing and finishes both', async () => {
    const port = await freePort()
    const server = await startHealthy(port, { capture: true })
    const total = 2_000
    const { api, q, mine } = await setUp(port, 'outage@example.com', total)
    const other = await analysed(api, 'Export me.csv', backupQuestions(3_000))
    expect((await api.post(Q.generate(q.id))).status).toBe(202)
    const edits = editors(api, mine)
    await until('generation to be under way', async () => {
      const res = await api.get(Q.get(q.id))
      return res.body.progress >= 5 ? true : undefined
    })
    // an export runs too, as a job: the cut must not lose it
    const exporting = await api.post(Q.exportOriginal, { questionnaire_id: other.id })
    expect(exporting.status).toBe(202)
    for (let cut = 0; cut < 3; cut++) {
      const ended = await terminateEveryone()
      expect(ended.length).toBeGreaterThan(0)
      await sleep(700)
      expect(server.child.exitCode, server.output().slice(-3000)).toBeNull()
    }
    const cutAt = Date.now()
    await until(
      'the API to answer again',
      async () => ((await healthy(port)) ? true : undefined),
      20_000,
    )
    expect(Date.now() - cutAt).toBeLessThan(20_000)
    const done = await settled(api, q.id, 120_000)
    await edits.stop()
    expect(server.child.exitCode, server.output().slice(-3000)).toBeNull()
    expect(done).toMatchObject({ status: 'ready' })
    // the export finished, once
    const { run } = await finished(api, exporting.body.export.id, 90_000)
    expect(run).toMatchObject({ status: 'done' })
    expect(run.filled_file?.id).toBeTruthy()
    const files = await query('select id from filled_files where questionnaire_id = $1', [other.id])
    expect(files).toHaveLength(1)
    await expectNoEditLost(api, q.id, edits)
    // every question has its answer, once: the people's edits and the generated rest
    const rows = (await api.get(Q.answers(q.id))).body.questions as Body[]
    expect(rows).toHaveLength(total)
    expect(rows.filter((row) => ['generated', 'edited'].includes(row.answer.status))).toHaveLength(
      total,
    )
    const dupes = await query(
      `select question_id, rank, count(*) from questionnaire_answers where questionnaire_id = $1
        group by question_id, rank having count(*) > 1`,
      [q.id],
    )
    expect(dupes).toEqual([])
    // no call was a 500: while the database was away they were 503s, then 200s
    expect(edits.statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
  }, 240_000)

  it('with DATABASE_URL, a real restart of the database: the API node and a worker stay up and the generation finishes', async () => {
    const [portA, portB] = [await freePort(), await freePort()]
    // A keeps the embedded cluster (and restarts it); B and the worker reach it by URL
    start(portA, { env: { WORKERS: 'false' } })
    await waitHealthy(portA)
    const nodeB = start(portB, {
      env: { WORKERS: 'false', DATABASE_URL: databaseUrl() },
      capture: true,
    })
    const worker = start(0, {
      entry: 'server/worker.ts',
      env: { DATABASE_URL: databaseUrl() },
      capture: true,
    })
    await waitHealthy(portB, nodeB, 60_000).catch((error) => {
      throw new Error(`${error}: ${nodeB.output().slice(-3000)}`)
    })
    const total = 1_500
    const { api: viaA, q } = await setUp(portA, 'restart@example.com', total)
    const { api: viaB } = await signedIn(portB, 'restart-b@example.com')
    expect((await viaA.post(Q.generate(q.id))).status).toBe(202)
    await until('generation to be under way', async () => {
      const res = await viaA.get(Q.get(q.id))
      return res.body.progress >= 5 ? true : undefined
    })
    const before = postmasterPid()
    // fast shutdown: every session is told "terminating connection due to administrator command"
    process.kill(before as number, 'SIGINT')
    await until(
      'the database to restart',
      async () => {
        const pid = postmasterPid()
        return pid && pid !== before ? true : undefined
      },
      30_000,
    )
    await until(
      'node B to answer again',
      async () => {
        const res = await viaB.get(Q.list)
        return res.status === 200 ? true : undefined
      },
      30_000,
    )
    const done = await settled(viaA, q.id, 120_000)
    expect(done).toMatchObject({ status: 'ready', answered: total })
    expect(nodeB.child.exitCode, nodeB.output().slice(-3000)).toBeNull()
    expect(worker.child.exitCode, worker.output().slice(-3000)).toBeNull()
    // the worker keeps working after the outage: a new questionnaire is analysed
    await analysed(viaB, 'After restart.csv', backupQuestions(10))
  }, 240_000)
})
