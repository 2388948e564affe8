import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { apiPath, paths } from '../contract/paths.ts'
import { tempDataDir } from '../scripts/lib/data-dir.ts'
import { createApp } from '../server/app.ts'
import { hashPassword } from '../server/auth/password.ts'
import { attachEmbeddedPostgres, freePort, startEmbeddedPostgres } from '../server/db/embedded.ts'
import { openDatabase, runMigrations } from '../server/db/index.ts'
import { createLogger } from '../server/logger.ts'
import { createMailer } from '../server/mail/index.ts'

export const root = fileURLToPath(new URL('..', import.meta.url))

/** A fresh DATA_DIR the embedded PostgreSQL's system user can enter (shared with scripts/). */
export { tempDataDir }

export interface RunningServer {
  url: string
  process: ChildProcess
  /** Milliseconds from spawn to the first healthy answer. */
  readyMs: number
  stop(): Promise<void>
}

/** Starts `server/main.ts` on a free port and waits until /api/v1/health answers 200. */
export async function startServer(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningServer> {
  const port = await freePort()
  const started = performance.now()
  // BENCH_CPU_PROFILE=DIR: the server writes a V8 CPU profile there when it stops
  const profile = process.env.BENCH_CPU_PROFILE
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child = spawn(process.execPath, [...flags, 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  let exited = false
  child.on('exit', () => {
    exited = true
  })
  for (;;) {
    if (exited) throw new Error('the server exited before it was healthy')
    try {
      const res = await fetch(`${url}/api/v1/health`)
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const readyMs = performance.now() - started
  return {
    url,
    process: child,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
/** The value below which the share `p` (0 to 1) of `values` lies. */
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor(values.length * p))
  ] as number

/**
 * Server-sent events read from a stream's text as it comes, minimally: each event with both an
 * `event:` and a `data:` line is handed over by name with its data parsed as JSON (keep-alive
 * comments and events without data are skipped).
 */
export function sseReader(onEvent: (type: string, data: unknown) => void) {
  let buffer = ''
  return (text: string) => {
    buffer += text
    let cut = buffer.indexOf('\n\n')
    while (cut >= 0) {
      const block = buffer.slice(0, cut)
      buffer = buffer.slice(cut + 2)
      cut = buffer.indexOf('\n\n')
      const type = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (type && data) onEvent(type, JSON.parse(data))
    }
  }
}

/**
 * A draw from `words` by a Zipf distribution (rank r has weight 1 / r^1.05), using `random` for
 * the uniform draws: text shaped like real prose, where some words are common and most are rare.
 */
export function zipfSampler(words: readonly string[], random: () => number) {
  const weights = words.map((_, i) => 1 / (i + 1) ** 1.05)
  const total = weights.reduce((sum, w) => sum + w, 0)
  const cumulative: number[] = []
  let running = 0
  for (const weight of weights) {
    running += weight / total
    cumulative.push(running)
  }
  return () => {
    const r = random()
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] as number) < r) lo = mid + 1
      else hi = mid
    }
    return words[lo] as string
  }
}

/**
 * A benchmark's organisation, its license and one active administrator (with a password when one
 * is given, to sign in over HTTP), written straight to the database.
 */
export async function seedAccount(
  db: Pick<pg.ClientBase, 'query'>,
  options: {
    name: string
    license: { users: number; repository: number; questionnaires: number; answers: number }
    email?: string
    password?: string
  },
) {
  const org = await db.query<{ id: string }>(
    'insert into organizations (name) values ($1) returning id',
    [options.name],
  )
  const orgId = Number(org.rows[0]?.id)
  const { users, repository, questionnaires, answers } = options.license
  await db.query(
    `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers)
     values ($1, $2, $3, $4, $5, $6)`,
    [orgId, options.name, users, repository, questionnaires, answers],
  )
  const user = await db.query<{ id: string }>(
    `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
     values ($1, $2, 'Bench', 'User', $3, 'admin', 'active', now()) returning id`,
    [
      orgId,
      options.email ?? 'bench@example.com',
      options.password ? await hashPassword(options.password) : null,
    ],
  )
  return { orgId, userId: Number(user.rows[0]?.id) }
}

/** People of an organisation, each with a role, active and confirmed, all with `passwordHash`. */
export async function seedPeople(
  db: Pick<pg.ClientBase, 'query'>,
  orgId: number,
  people: { email: string; role: string }[],
  passwordHash: string,
) {
  const { rows } = await db.query<{ id: string; email: string }>(
    `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
     select $1, e, 'Bench', 'Person ' || n, $2, r, 'active', now()
       from unnest($3::text[], $4::text[]) with ordinality as x(e, r, n)
     returning id, email`,
    [orgId, passwordHash, people.map((p) => p.email), people.map((p) => p.role)],
  )
  return new Map(rows.map((row) => [row.email, Number(row.id)]))
}

/**
 * A ready questionnaire (due in 30 days) with one tab of `questions` questions, each answered
 * (rank 0, as analysis leaves them).
 */
export async function seedQuestionnaire(
  db: Pick<pg.ClientBase, 'query'>,
  orgId: number,
  options: { name: string; questions: number },
) {
  const q = await db.query<{ id: string }>(
    `insert into questionnaires (org_id, name, kind, mime, storage_key, status, due_date)
     values ($1, $2, 'xlsx', 'application/octet-stream', $3, 'ready', current_date + 30) returning id`,
    [orgId, options.name, randomUUID()],
  )
  const questionnaireId = Number(q.rows[0]?.id)
  const tab = await db.query<{ id: string }>(
    `insert into questionnaire_tabs (org_id, questionnaire_id, name, position) values ($1, $2, 'Controls', 0) returning id`,
    [orgId, questionnaireId],
  )
  const tabId = Number(tab.rows[0]?.id)
  await db.query(
    `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, ref, text, match_key)
     select $1, $2, $3, n - 1, 'CTL-' || n, 'Do you maintain control ' || n || ', documented and reviewed every year?', 'q' || n
       from generate_series(1, $4::int) as n`,
    [orgId, questionnaireId, tabId, options.questions],
  )
  await db.query(
    `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank, text, choice, status, confidence)
     select $1, $2, qq.id, 0, 'Yes, documented and reviewed every year.', 'Yes', 'generated', 0.9
       from questionnaire_questions qq where qq.questionnaire_id = $2`,
    [orgId, questionnaireId],
  )
  return { questionnaireId, tabId }
}

/** An embedded PostgreSQL in `dataDir` (no fsync: figures, not durability), migrated. */
export async function benchDatabase(dataDir: string, poolSize: number) {
  const pg = await startEmbeddedPostgres({ dataDir, fsync: false, log: () => {} })
  const database = openDatabase(pg.url, poolSize)
  const stop = async () => {
    await database.close()
    await pg.stop()
  }
  try {
    await runMigrations(database)
  } catch (error) {
    await stop()
    throw error
  }
  return { database, stop }
}

/**
 * The synthetic corpus of the answering and chat benches: security-shaped sentences (a topic word
 * in three, the rest from 6,000 rare terms), seeded so every run writes the same text.
 */
export function syntheticText(seed: number) {
  let state = seed
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
  const topics =
    'encryption backup retention incident vendor access password logging monitoring firewall vulnerability penetration recovery continuity privacy consent region subprocessor change release secrets laptop antivirus patching inventory classification training audit policy review approval deletion'.split(
      ' ',
    )
  const filler = Array.from({ length: 6000 }, (_, i) => `term${i.toString(36)}`)
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T
  const sentence = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.3 ? pick(topics) : pick(filler))).join(' ')
  return { random, pick, sentence, topics, filler }
}

/**
 * One ready repository file of `passages` synthetic passages and `pairs` library Q&A pairs
 * ('Do you apply X and Y controls to Z item i?'), then ANALYZE. Returns the pairs' questions.
 */
export async function seedCorpus(
  db: Pick<pg.ClientBase, 'query'>,
  orgId: number,
  text: ReturnType<typeof syntheticText>,
  options: { passages: number; pairs: number; answer: string },
) {
  const { rows } = await db.query<{ id: string }>(
    `insert into repository_files (org_id, name, kind, mime, status) values ($1, 'Corpus.pdf', 'pdf', 'application/pdf', 'ready') returning id`,
    [orgId],
  )
  for (let start = 0; start < options.passages; start += 5_000) {
    const texts = Array.from(
      { length: Math.min(5_000, options.passages - start) },
      () => `${text.sentence(18)}. ${text.sentence(22)}.`,
    )
    await db.query(
      `insert into file_passages (org_id, file_id, ordinal, text)
       select $1, $2, $3 + n - 1, t from unnest($4::text[]) with ordinality as x(t, n)`,
      [orgId, Number(rows[0]?.id), start, texts],
    )
  }
  const questions = Array.from(
    { length: options.pairs },
    (_, i) =>
      `Do you apply ${text.pick(text.topics)} and ${text.pick(text.topics)} controls to ${text.pick(text.filler)} item ${i}?`,
  )
  await db.query(
    `insert into kb_qa_items (org_id, question, answer, dropdown_value, question_key)
     select $1, q, $3, 'Yes', lower(q) from unnest($2::text[]) as q`,
    [orgId, questions, options.answer],
  )
  await db.query('analyze')
  return questions
}

/**
 * A migrated bench database on a fresh DATA_DIR holding 50,000 passages and 2,000 library pairs
 * of the synthetic text of `seed`, for one organisation (its administrator signs in with
 * `password` when one is given): the text to ask in, the pairs' questions; `stop` ends the
 * database and removes its directory.
 */
export async function corpusDatabase(options: {
  seed: number
  name: string
  answer: string
  password?: string
}) {
  const text = syntheticText(options.seed)
  const dataDir = tempDataDir()
  const { database, stop: stopDatabase } = await benchDatabase(dataDir, 6)
  const stop = async () => {
    await stopDatabase()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const { orgId, userId } = await seedAccount(database.pool, {
      name: options.name,
      license: { users: 5, repository: 1000, questionnaires: 1000, answers: 0 },
      password: options.password,
    })
    const questions = await seedCorpus(database.pool, orgId, text, {
      passages: 50_000,
      pairs: 2_000,
      answer: options.answer,
    })
    return { text, dataDir, database, orgId, userId, questions, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * The HTTP app in this process on a bench database (as the page calls it: authentication,
 * tenancy, zod, gzip), and the access token of `email` signed in with `password`.
 */
export async function benchApp(
  database: Parameters<typeof createApp>[0]['database'],
  dataDir: string,
  credentials: { email?: string; password: string },
) {
  const logger = createLogger('silent')
  const app = createApp({
    database,
    logger,
    version: 'bench',
    embedded: true,
    publicUrl: 'http://localhost:3000',
    jwtSecret: 'bench-secret-of-quire-at-least-32-characters',
    mailer: createMailer({ transport: 'log', from: 'Quire <bench@example.com>', logger }),
    dataDir: path.join(dataDir, 'blobs'),
  })
  const access = await signIn(app, credentials.email ?? 'bench@example.com', credentials.password)
  return { app, access }
}

/** The access token of `email` signed in with `password` through the app. */
export async function signIn(
  app: Pick<ReturnType<typeof createApp>, 'request'>,
  email: string,
  password: string,
) {
  const res = await app.request(apiPath(paths.auth.login), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`login of ${email} answered ${res.status}`)
  return ((await res.json()) as { access: string }).access
}

/**
 * An administrator registered over HTTP on a running server (the confirmation written straight
 * to its embedded PostgreSQL), signed in: their access token, a JSON POST helper, and a client
 * of the same database for the bench's own rows (the caller ends it).
 */
export async function signedUpOverHttp(
  server: RunningServer,
  dataDir: string,
  account: { email: string; password: string; organization: string },
) {
  const post = async (at: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}${apiPath(at)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as Record<string, unknown>
    if (res.status >= 300) throw new Error(`${at}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  await post(paths.auth.register, { ...account, firstName: 'Bench', lastName: 'Mark' })
  const db = await embeddedClient(dataDir)
  await db.query('update users set email_confirmed_at = now() where email = $1', [account.email])
  const { access } = (await post(paths.auth.login, {
    email: account.email,
    password: account.password,
  })) as { access: string }
  return { access, post, db }
}

/** A client of the running server's embedded PostgreSQL in `dataDir`, connected. */
export async function embeddedClient(dataDir: string) {
  const url = attachEmbeddedPostgres(dataDir)
  if (!url) throw new Error('no embedded PostgreSQL')
  const { default: pgModule } = await import('pg')
  const db = new pgModule.Client({ connectionString: url })
  await db.connect()
  return db
}

/** Marks every address registered on the server as confirmed: benches skip the mailed link. */
export async function confirmEveryAddress(dataDir: string) {
  const db = await embeddedClient(dataDir)
  try {
    await db.query('update users set email_confirmed_at = now()')
  } finally {
    await db.end()
  }
}

/**
 * The real server on a fresh DATA_DIR (rate limits lifted, mail to the log, `env` on top) with
 * `account` signed up over HTTP; `stop` ends the server and removes its directory.
 */
export async function signedUpServer(
  account: { email: string; password: string; organization: string },
  env: NodeJS.ProcessEnv = {},
) {
  const dataDir = tempDataDir()
  const server = await startServer(dataDir, {
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    MAIL_TRANSPORT: 'log',
    ...env,
  })
  const stop = async () => {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    return { server, dataDir, stop, ...(await signedUpOverHttp(server, dataDir, account)) }
  } catch (error) {
    await stop()
    throw error
  }
}
