import { rmSync } from 'node:fs'
import http from 'node:http'
import { serve } from '@hono/node-server'
import { apiPath, paths } from '../contract/paths.ts'
import { hashPassword } from '../server/auth/password.ts'
import {
  benchApp,
  benchDatabase,
  percentile,
  round,
  seedAccount,
  seedPeople,
  seedQuestionnaire,
  signIn,
  sseReader,
  tempDataDir,
} from './support.ts'

/**
 * Issue 37's load test, against the HTTP server on a listening socket (every stream is its own
 * connection, read with node's http client), the pool at its default 10 connections:
 * - flood: one person (a viewer, one sign-in) opens 2,000 streams on one questionnaire
 *   (`{id}/events/`) and 200 notification streams (`notifications/stream/`), interleaved, 50
 *   opening at a time for at most 75 s: how many opened (200), were refused (429, with
 *   `Retry-After`) or answered anything else. While they open, and then 200 times while they are
 *   open (one call every 50 ms), another organisation's admin lists its questionnaires:
 *   p50/p95/max and every status but 200;
 * - fan-out: 200 streams on another questionnaire, 4 for each of 50 people (each their own
 *   sign-in); the admin edits answers, 20 edits half a second apart after 3 warm-ups: from sending
 *   the edit until each stream gets the `change` event (every stream's figure counts), while the
 *   other organisation's list call is timed again.
 * Budgets: change p95 < 500 ms; the other organisation's list p95 < 250 ms and no error while
 * the flood opens, while it is open, and during the fan-out. Reports and exits 0 whatever the figures; a watchdog prints
 * what it has after 175 s. Smaller runs: STREAMS_FLOOD, STREAMS_FLOOD_NOTIFICATIONS,
 * STREAMS_PEOPLE, STREAMS_LIST_CALLS, STREAMS_EDITS.
 */
const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isInteger(value) && value > 0 ? value : fallback
}
const FLOOD_EVENTS = setting('STREAMS_FLOOD', 2_000)
const FLOOD_NOTIFICATIONS = setting('STREAMS_FLOOD_NOTIFICATIONS', 200)
const FLOOD_CONCURRENCY = 50
const FLOOD_OPEN_DEADLINE_MS = 75_000
const PEOPLE = setting('STREAMS_PEOPLE', 50)
const STREAMS_PER_PERSON = 4
const LIST_CALLS = setting('STREAMS_LIST_CALLS', 200)
const LIST_GAP_MS = 50
const LIST_DEADLINE_MS = 30_000
const EDITS = setting('STREAMS_EDITS', 20)
const EDIT_WARM_UPS = 3
const EDIT_GAP_MS = 500
const EDIT_WAIT_MS = 3_000
const OPEN_TIMEOUT_MS = 15_000
const CALL_TIMEOUT_MS = 10_000
const WATCHDOG_MS = 175_000
const SETTLE_MS = 15_000
const BUDGETS = {
  change_to_200_viewers_p95_ms: 500,
  other_org_list_during_opening_p95_ms: 250,
  other_org_list_p95_ms: 250,
  fanout_other_org_list_p95_ms: 250,
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const tally = (statuses: string[]) => {
  const counts: Record<string, number> = {}
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

// streams each get their own connection; calls reuse theirs, as a browser's would
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity })
const callAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

interface Stream {
  /** The HTTP status, or 'timeout' (no answer within OPEN_TIMEOUT_MS) or 'error'. */
  status: string
  retryAfter: boolean
  /** The server ended it before the bench closed it. */
  ended: boolean
  close(): void
}

/** Opens a stream; resolves once it is answered (200: events go to `onEvent` until closed). */
function openStream(
  base: string,
  path: string,
  token: string,
  onEvent: (type: string, data: unknown) => void = () => {},
) {
  return new Promise<Stream>((resolve) => {
    let closing = false
    const req = http.request(`${base}${apiPath(path)}`, {
      agent: streamAgent,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    })
    const stream: Stream = {
      status: 'error',
      retryAfter: false,
      ended: false,
      close: () => {
        closing = true
        req.destroy()
      },
    }
    const timer = setTimeout(() => {
      stream.status = 'timeout'
      stream.close()
      resolve(stream)
    }, OPEN_TIMEOUT_MS)
    req.on('response', (res) => {
      clearTimeout(timer)
      stream.status = String(res.statusCode)
      stream.retryAfter = res.headers['retry-after'] !== undefined
      const ended = () => {
        if (!closing) stream.ended = true
      }
      res.on('end', ended)
      res.on('close', ended)
      res.on('error', () => {})
      if (res.statusCode === 200) {
        res.setEncoding('utf8')
        res.on('data', sseReader(onEvent))
      } else res.resume()
      resolve(stream)
    })
    req.on('error', () => {
      clearTimeout(timer)
      resolve(stream)
    })
    req.end()
  })
}

/** One call, timed until its whole body has arrived: its status ('timeout', 'error') and ms. */
function call(base: string, method: string, path: string, token: string, body?: unknown) {
  const started = performance.now()
  return new Promise<{ status: string; ms: number }>((resolve) => {
    let done = false
    const finish = (status: string) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({ status, ms: performance.now() - started })
    }
    const req = http.request(`${base}${apiPath(path)}`, {
      method,
      agent: callAgent,
      headers: {
        authorization: `Bearer ${token}`,
        'accept-encoding': 'gzip',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    })
    const timer = setTimeout(() => {
      finish('timeout')
      req.destroy()
    }, CALL_TIMEOUT_MS)
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => finish(String(res.statusCode)))
      res.on('error', () => finish('error'))
    })
    req.on('error', () => finish('error'))
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

/**
 * The other organisation's list call, one every LIST_GAP_MS (start to start), `calls` times or
 * until `stop.done`, never past `deadlineMs`: figures under `prefix`.
 */
async function timeList(
  base: string,
  token: string,
  prefix: string,
  options: { calls?: number; stop?: { done: boolean }; deadlineMs: number },
) {
  const times: number[] = []
  const statuses: string[] = []
  const until = performance.now() + options.deadlineMs
  while (performance.now() < until) {
    if (options.calls !== undefined ? times.length >= options.calls : options.stop?.done) break
    const { status, ms } = await call(base, 'GET', paths.questionnaires.list, token)
    times.push(ms)
    statuses.push(status)
    await sleep(Math.max(0, LIST_GAP_MS - ms))
  }
  const non200 = statuses.filter((status) => status !== '200').length
  return {
    [`${prefix}_calls`]: times.length,
    [`${prefix}_p50_ms`]: times.length ? round(percentile(times, 0.5)) : null,
    [`${prefix}_p95_ms`]: times.length ? round(percentile(times, 0.95)) : null,
    [`${prefix}_max_ms`]: times.length ? round(Math.max(...times)) : null,
    [`${prefix}_non_200`]: non200,
    [`${prefix}_statuses`]: tally(statuses),
  }
}

const figures: Record<string, unknown> = { bench: 'streams' }
const benchStarted = performance.now()
let phase = 'setup'
const streams: Stream[] = []
let server: http.Server | undefined

const dataDir = tempDataDir()
const { database, stop } = await benchDatabase(dataDir, 10)

async function run() {
  const { pool } = database
  const password = 'Bench-password-of-the-stream-flood-37'
  const { orgId } = await seedAccount(pool, {
    name: 'Streams bench',
    license: { users: 1000, repository: 1000, questionnaires: 1000, answers: 1_000_000 },
    password,
  })
  const people = Array.from({ length: PEOPLE }, (_, i) => `person${i}@example.com`)
  await seedPeople(
    pool,
    orgId,
    [
      { email: 'flood@example.com', role: 'viewer' },
      ...people.map((email) => ({ email, role: 'viewer' })),
    ],
    await hashPassword(password),
  )
  const flooded = await seedQuestionnaire(pool, orgId, { name: 'Flooded', questions: 50 })
  const reviewed = await seedQuestionnaire(pool, orgId, {
    name: 'Reviewed',
    questions: EDIT_WARM_UPS + EDITS + 100,
  })
  // the other organisation: its admin and 20 questionnaires to list
  const other = await seedAccount(pool, {
    name: 'Other organisation',
    license: { users: 10, repository: 1000, questionnaires: 1000, answers: 1_000_000 },
    email: 'other@example.com',
    password,
  })
  for (let i = 0; i < 20; i++)
    await seedQuestionnaire(pool, other.orgId, { name: `Other ${i + 1}`, questions: 20 })
  await pool.query('analyze')

  const { app, access: adminToken } = await benchApp(database, dataDir, { password })
  const floodToken = await signIn(app, 'flood@example.com', password)
  const otherToken = await signIn(app, 'other@example.com', password)
  const personTokens: string[] = []
  for (const email of people) personTokens.push(await signIn(app, email, password))

  const base = await new Promise<string>((resolve) => {
    const instance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    ) as http.Server
    instance.keepAliveTimeout = 65_000
    server = instance
  })
  const warm = await call(base, 'GET', paths.questionnaires.list, otherToken)
  if (warm.status !== '200')
    throw new Error(`the other organisation's list answered ${warm.status}`)

  // 1. the flood, the other organisation's list timed while it opens and while it is open
  phase = 'flood'
  {
    const rssBefore = process.memoryUsage().rss
    const kinds = [
      ...Array.from({ length: FLOOD_EVENTS }, (_, i) => ({ kind: 'events', at: i / FLOOD_EVENTS })),
      ...Array.from({ length: FLOOD_NOTIFICATIONS }, (_, i) => ({
        kind: 'notifications',
        at: (i + 0.5) / FLOOD_NOTIFICATIONS,
      })),
    ].sort((a, b) => a.at - b.at)
    const outcomes: Record<string, Stream[]> = { events: [], notifications: [] }
    const opening = { done: false }
    const during = timeList(base, otherToken, 'other_org_list_during_opening', {
      stop: opening,
      deadlineMs: FLOOD_OPEN_DEADLINE_MS + OPEN_TIMEOUT_MS,
    })
    const started = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, async () => {
        while (next < kinds.length && performance.now() - started < FLOOD_OPEN_DEADLINE_MS) {
          const { kind } = kinds[next++] as { kind: string }
          const path =
            kind === 'events'
              ? paths.questionnaires.events(flooded.questionnaireId)
              : paths.notifications.stream
          const stream = await openStream(base, path, floodToken)
          streams.push(stream)
          outcomes[kind]?.push(stream)
        }
      }),
    )
    figures.flood_open_s = round((performance.now() - started) / 1000, 2)
    opening.done = true
    Object.assign(figures, await during)
    for (const [kind, wanted] of [
      ['events', FLOOD_EVENTS],
      ['notifications', FLOOD_NOTIFICATIONS],
    ] as const) {
      const list = outcomes[kind] ?? []
      figures[`flood_${kind}_attempted`] = list.length
      figures[`flood_${kind}_not_attempted`] = wanted - list.length
      figures[`flood_${kind}_opened`] = list.filter((s) => s.status === '200').length
      figures[`flood_${kind}_refused_429`] = list.filter((s) => s.status === '429').length
      figures[`flood_${kind}_429_with_retry_after`] = list.filter(
        (s) => s.status === '429' && s.retryAfter,
      ).length
      figures[`flood_${kind}_statuses`] = tally(list.map((s) => s.status))
    }
    figures.flood_rss_growth_mb = round((process.memoryUsage().rss - rssBefore) / 2 ** 20)

    phase = 'flood: timing the other organisation'
    Object.assign(
      figures,
      await timeList(base, otherToken, 'other_org_list', {
        calls: LIST_CALLS,
        deadlineMs: LIST_DEADLINE_MS,
      }),
    )
    const opened = streams.filter((s) => s.status === '200')
    figures.flood_streams_ended_by_server = opened.filter((s) => s.ended).length
    figures.flood_streams_open_at_end = opened.filter((s) => !s.ended).length

    // closed; then the server settles (the list answers 200 within 250 ms again)
    phase = 'flood: closing'
    for (const stream of streams) stream.close()
    const settling = performance.now()
    for (;;) {
      const { status, ms } = await call(base, 'GET', paths.questionnaires.list, otherToken)
      if ((status === '200' && ms < 250) || performance.now() - settling > SETTLE_MS) break
      await sleep(250)
    }
    figures.settle_after_flood_s = round((performance.now() - settling) / 1000, 2)
  }

  // 2. fan-out: 4 streams for each of 50 people on one questionnaire, the admin edits answers
  phase = 'fan-out'
  {
    const arrivals = new Map<number, number>()
    let changed = () => {}
    const viewers = await Promise.all(
      personTokens.flatMap((token) =>
        Array.from({ length: STREAMS_PER_PERSON }, async () => {
          const viewer = { presence: 0, arrived: new Map<number, number>() }
          const stream = await openStream(
            base,
            paths.questionnaires.events(reviewed.questionnaireId),
            token,
            (type, data) => {
              const at = performance.now()
              const parsed = data as { viewers?: unknown[]; question_ids?: number[] | null }
              if (type === 'presence') viewer.presence = parsed.viewers?.length ?? 0
              const question = parsed.question_ids?.[0]
              if (type !== 'change' || question === undefined || viewer.arrived.has(question))
                return
              viewer.arrived.set(question, at)
              arrivals.set(question, (arrivals.get(question) ?? 0) + 1)
              changed()
            },
          )
          streams.push(stream)
          return Object.assign(viewer, { stream })
        }),
      ),
    )
    const open = viewers.filter((v) => v.stream.status === '200')
    figures.fanout_streams_opened = open.length
    figures.fanout_statuses = tally(viewers.map((v) => v.stream.status))
    // everyone is here once every stream's presence names all 50
    for (let i = 0; i < 800 && open.some((v) => v.presence < PEOPLE); i++) await sleep(25)
    figures.viewers_connected = open.length ? Math.min(...open.map((v) => v.presence)) : 0

    const answers = await pool.query<{ id: string; question_id: string }>(
      `select id, question_id from questionnaire_answers where questionnaire_id = $1 order by question_id limit $2`,
      [reviewed.questionnaireId, EDIT_WARM_UPS + EDITS],
    )
    const listing = { done: false }
    const timed = timeList(base, otherToken, 'fanout_other_org_list', {
      stop: listing,
      deadlineMs: (EDIT_WARM_UPS + EDITS) * (EDIT_GAP_MS + EDIT_WAIT_MS) + 5_000,
    })
    const sent = new Map<number, number>()
    const editTimes: number[] = []
    const editStatuses: string[] = []
    for (let i = 0; i < EDIT_WARM_UPS + EDITS; i++) {
      const answer = answers.rows[i]
      if (!answer) throw new Error('not enough answers')
      const question = Number(answer.question_id)
      const all = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, EDIT_WAIT_MS)
        changed = () => {
          if ((arrivals.get(question) ?? 0) < open.length) return
          clearTimeout(timer)
          resolve()
        }
      })
      const started = performance.now()
      const { status, ms } = await call(
        base,
        'POST',
        paths.questionnaires.answer.edit(Number(answer.id)),
        adminToken,
        { text: `Yes, documented and reviewed every year (edit ${i}).` },
      )
      changed()
      await all
      if (i >= EDIT_WARM_UPS) {
        sent.set(question, started)
        editTimes.push(ms)
        editStatuses.push(status)
      }
      await sleep(EDIT_GAP_MS)
    }
    listing.done = true
    Object.assign(figures, await timed)
    // every stream's figure for every edit, late ones included
    const latencies: number[] = []
    for (const viewer of open)
      for (const [question, started] of sent) {
        const at = viewer.arrived.get(question)
        if (at !== undefined) latencies.push(at - started)
      }
    figures.edits = EDITS
    figures.edit_statuses = tally(editStatuses)
    figures.edit_response_p50_ms = round(percentile(editTimes, 0.5))
    figures.change_to_200_viewers_samples = latencies.length
    figures.change_to_200_viewers_missed = open.length * sent.size - latencies.length
    figures.change_to_200_viewers_p50_ms = latencies.length
      ? round(percentile(latencies, 0.5))
      : null
    figures.change_to_200_viewers_p95_ms = latencies.length
      ? round(percentile(latencies, 0.95))
      : null
    figures.change_to_200_viewers_max_ms = latencies.length ? round(Math.max(...latencies)) : null
    figures.fanout_streams_ended_by_server = open.filter((v) => v.stream.ended).length
  }
  phase = 'done'
}

try {
  let watchdog: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    run(),
    new Promise<'watchdog'>((resolve) => {
      watchdog = setTimeout(() => resolve('watchdog'), WATCHDOG_MS)
    }),
  ])
  clearTimeout(watchdog)
  if (outcome === 'watchdog') {
    // what still runs fails as the streams and the database go away: the figures so far stand
    process.on('unhandledRejection', () => {})
    figures.incomplete = `stopped after ${WATCHDOG_MS / 1000} s in ${phase}`
  }
  const below = (key: string, budget: number) =>
    typeof figures[key] === 'number' && (figures[key] as number) < budget
  figures.budgets = BUDGETS
  figures.within_budget = {
    change_to_200_viewers_p95_ms:
      below('change_to_200_viewers_p95_ms', BUDGETS.change_to_200_viewers_p95_ms) &&
      figures.change_to_200_viewers_missed === 0 &&
      figures.fanout_streams_opened === PEOPLE * STREAMS_PER_PERSON,
    other_org_list_during_opening_p95_ms:
      below('other_org_list_during_opening_p95_ms', BUDGETS.other_org_list_during_opening_p95_ms) &&
      figures.other_org_list_during_opening_non_200 === 0,
    other_org_list_p95_ms:
      below('other_org_list_p95_ms', BUDGETS.other_org_list_p95_ms) &&
      figures.other_org_list_non_200 === 0,
    fanout_other_org_list_p95_ms:
      below('fanout_other_org_list_p95_ms', BUDGETS.fanout_other_org_list_p95_ms) &&
      figures.fanout_other_org_list_non_200 === 0,
  }
  figures.duration_s = round((performance.now() - benchStarted) / 1000)
  console.log(JSON.stringify(figures))
} finally {
  for (const stream of streams) stream.close()
  server?.closeAllConnections()
  server?.close()
  streamAgent.destroy()
  callAgent.destroy()
  await stop()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(0)
