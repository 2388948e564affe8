import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { apiPath, paths } from '../contract/paths.ts'
import { createApp } from '../server/app.ts'
import { hashPassword } from '../server/auth/password.ts'
import { startEmbeddedPostgres } from '../server/db/embedded.ts'
import { openDatabase, runMigrations } from '../server/db/index.ts'
import { createLogger } from '../server/logger.ts'
import { createMailer } from '../server/mail/index.ts'
import { createExportService } from '../server/modules/questionnaires/export.ts'
import { createQuestionnaireService } from '../server/modules/questionnaires/service.ts'
import { createDiskStorage } from '../server/storage/index.ts'
import { root, round, tempDataDir } from './support.ts'

/**
 * Questionnaire figures: the analysis job (parser process + database writes) on HECVAT 4.1.4 and
 * on a generated 2,000-question, 5-tab workbook; export into the original HECVAT 4.1.4 with every
 * answer filled; and `GET {id}/answers/` for 2,000 answered questions through the HTTP app
 * (authentication, tenancy, validation, gzipped JSON), p50/p95 over 50 calls.
 */
const hecvat = path.resolve(root, '../shared/data/questionnaires/HECVAT_4.1.4_blank.xlsx')

async function generatedWorkbook() {
  const workbook = new ExcelJS.Workbook()
  for (let t = 0; t < 5; t++) {
    const prefix = ['ABC', 'DEF', 'GHI', 'JKL', 'MNO'][t] as string
    const sheet = workbook.addWorksheet(`${prefix} controls`)
    sheet.addRow(['ID', 'Question', 'Answer', 'Comments'])
    for (let i = 0; i < 400; i++) {
      const row = sheet.addRow([
        `${prefix}-${String(Math.floor(i / 10) + 1).padStart(2, '0')}.${(i % 10) + 1}`,
        `Do you maintain control ${i + 1} of the ${prefix} family, documented and reviewed every year?`,
        '',
        '',
      ])
      row.getCell(3).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] }
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor(values.length * p))
  ] as number

const dataDir = tempDataDir()
const pg = await startEmbeddedPostgres({ dataDir, fsync: false, log: () => {} })
const database = openDatabase(pg.url, 6)
try {
  await runMigrations(database)
  const logger = createLogger('silent')
  const storage = createDiskStorage(path.join(dataDir, 'blobs'))
  const { rows: orgs } = await database.pool.query<{ id: string }>(
    "insert into organizations (name) values ('Bench') returning id",
  )
  const orgId = Number(orgs[0]?.id)
  await database.pool.query(
    `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers)
     values ($1, 'Bench', 5, 1000, 1000, 0)`,
    [orgId],
  )
  const password = 'Bench-password-for-figures-42'
  const { rows: users } = await database.pool.query<{ id: string }>(
    `insert into users (org_id, email, first_name, last_name, role, status, password_hash, email_confirmed_at)
     values ($1, 'bench@example.com', 'B', 'B', 'admin', 'active', $2, now()) returning id`,
    [orgId, await hashPassword(password)],
  )
  const userId = Number(users[0]?.id)
  const service = createQuestionnaireService({ database, storage, logger, parseLimits: {} })
  const exports = createExportService({ database, storage, questionnaires: service })

  /** Upload, then time the analysis job from queued to ready (in-process, as without workers). */
  async function analyse(buffer: Buffer, name: string) {
    const temp = await storage.tempFromBuffer(buffer)
    const started = performance.now()
    const q = await service.upload(orgId, userId, { temp, filename: name })
    for (;;) {
      const current = await service.get(orgId, q.id)
      if (current.status === 'ready' || current.status === 'failed') {
        return { ms: performance.now() - started, questionnaire: current }
      }
      await new Promise((r) => setTimeout(r, 5))
    }
  }
  const fill = (id: number) =>
    database.pool.query(
      `update questionnaire_answers a set status = 'edited',
          text = 'We keep this control documented; it is reviewed every year by the security team.',
          choice = case when q.vocabulary is not null then q.vocabulary[1] end
         from questionnaire_questions q where q.id = a.question_id and a.questionnaire_id = $1`,
      [id],
    )

  const figures: Record<string, unknown> = { bench: 'questionnaires' }
  if (existsSync(hecvat)) {
    const buffer = readFileSync(hecvat)
    const runs = []
    let last = null
    for (let i = 0; i < 5; i++) {
      const run = await analyse(buffer, 'HECVAT_4.1.4_blank.xlsx')
      runs.push(run.ms)
      last = run.questionnaire
    }
    figures.analysis_hecvat414_ms = round(median(runs))
    figures.analysis_hecvat414_questions = last?.questions
    if (last) {
      await fill(last.id)
      const times = []
      let written = 0
      for (let i = 0; i < 5; i++) {
        const started = performance.now()
        const result = await exports.exportOriginal(orgId, userId, last.id)
        times.push(performance.now() - started)
        written = result.filled_file.answers_written
      }
      figures.export_hecvat414_ms = round(median(times))
      figures.export_hecvat414_answers_written = written
    }
  } else figures.hecvat414 = `skipped: ${hecvat} not found`

  const generated = await generatedWorkbook()
  const runs = []
  let big = null
  for (let i = 0; i < 5; i++) {
    const run = await analyse(generated, 'generated-2000.xlsx')
    runs.push(run.ms)
    big = run.questionnaire
  }
  figures.analysis_2000q_ms = round(median(runs))
  figures.analysis_2000q_questions = big?.questions
  if (big) {
    await fill(big.id)
    // through the HTTP app, as the page calls it: authentication, tenancy, zod, JSON
    const logger = createLogger('silent')
    const app = createApp({
      database,
      logger,
      version: 'bench',
      embedded: true,
      publicUrl: 'http://localhost:3000',
      jwtSecret: 'bench-secret-of-quire-at-least-32-characters',
      mailer: createMailer({ transport: 'log', from: 'Quire <bench@example.com>', logger }),
      dataDir,
    })
    const login = await app.request(apiPath(paths.auth.login), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password }),
    })
    const { access } = (await login.json()) as { access: string }
    const times = []
    let bytes = 0
    for (let i = 0; i < 53; i++) {
      const started = performance.now()
      const res = await app.request(apiPath(paths.questionnaires.answers(big.id)), {
        headers: { authorization: `Bearer ${access}`, 'accept-encoding': 'gzip' },
      })
      bytes = (await res.arrayBuffer()).byteLength
      if (res.status !== 200) throw new Error(`answers answered ${res.status}`)
      if (i >= 3) times.push(performance.now() - started)
    }
    figures.answers_2000q_p50_ms = round(percentile(times, 0.5))
    figures.answers_2000q_p95_ms = round(percentile(times, 0.95))
    figures.answers_2000q_kb = round(bytes / 1024)
  }
  figures.budgets = {
    analysis_hecvat414_ms: 2000,
    analysis_2000q_ms: 3000,
    export_hecvat414_ms: 1000,
    answers_2000q_p95_ms: 100,
  }
  console.log(JSON.stringify(figures))
} finally {
  await database.close()
  await pg.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(0)
