import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { apiPath, paths } from '../contract/paths.ts'
import { loadConfig } from '../server/config.ts'
import { createLogger } from '../server/logger.ts'
import { startRuntime } from '../server/runtime.ts'
import { root, round, seedAccount, tempDataDir } from './support.ts'

/**
 * Across frameworks, through the public API: a repository of one completed HECVAT Full and the
 * vendor's documents (uploaded and read first), then a blank CAIQ v4.0.3 from upload to the
 * exported original: analysis, generation and export, in seconds, with how many questions were
 * answered and cited. Skipped when the shared data folder is absent.
 */
const shared = path.resolve(root, '../shared/data/questionnaires')
const hecvat = path.join(
  shared,
  'instructure/Canvas_Credentials_Canvas_Credentials_HECVAT_Full.xlsx',
)
const caiq = path.join(shared, 'CSA_CAIQv4.0.3_blank.xlsx')
const documents = path.join(shared, 'instructure/documents')
if (![hecvat, caiq, documents].every(existsSync)) {
  console.log(JSON.stringify({ bench: 'cross-framework', skipped: `${shared} not found` }))
  process.exit(0)
}

const dataDir = tempDataDir()
const logger = createLogger('silent')
// the whole product in this process: embedded PostgreSQL, workers and the HTTP server
const runtime = await startRuntime({
  config: loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }),
  logger,
  http: true,
})
const stop = () => runtime.stop()
try {
  const password = 'Bench-password-across-frameworks-42'
  await seedAccount(runtime.database.pool, {
    name: 'Bench',
    license: { users: 5, repository: 1000, questionnaires: 10, answers: 100_000 },
    password,
  })
  const base = `http://127.0.0.1:${runtime.port}`
  const login = await fetch(`${base}${apiPath(paths.auth.login)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password }),
  })
  const { access } = (await login.json()) as { access: string }
  const headers = { authorization: `Bearer ${access}` }
  const call = async (route: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${apiPath(route)}`, {
      ...init,
      headers: { ...headers, ...(init.headers ?? {}) },
    })
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`)
    return res
  }
  const json = async <T>(route: string, init: RequestInit = {}) =>
    (await (await call(route, init)).json()) as T
  const until = async <T>(read: () => Promise<T | undefined>) => {
    const deadline = Date.now() + 300_000
    for (;;) {
      if (Date.now() > deadline) throw new Error('timed out')
      const value = await read()
      if (value !== undefined) return value
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  // the repository: the completed HECVAT and the documents, read before the clock starts
  const repositoryStarted = performance.now()
  const form = new FormData()
  for (const file of [hecvat, ...readdirSync(documents).map((name) => path.join(documents, name))])
    form.append('files', new Blob([readFileSync(file)]), path.basename(file))
  const { files } = await json<{ files: { id: number }[] }>(paths.files.upload, {
    method: 'POST',
    body: form,
  })
  for (const file of files)
    await until(async () => {
      const state = await json<{ status: string }>(paths.files.get(file.id))
      if (state.status === 'failed') throw new Error(`file ${file.id} failed`)
      return state.status === 'ready' ? true : undefined
    })
  const repositorySeconds = (performance.now() - repositoryStarted) / 1000

  // the CAIQ: upload, analysis, generation, export of the original
  const started = performance.now()
  const upload = new FormData()
  upload.append('file', new Blob([readFileSync(caiq)]), path.basename(caiq))
  const { id } = await json<{ id: number }>(paths.questionnaires.upload, {
    method: 'POST',
    body: upload,
  })
  const settled = () =>
    until(async () => {
      const q = await json<{ status: string }>(paths.questionnaires.get(id))
      if (q.status === 'failed') throw new Error('the questionnaire failed')
      return q.status === 'ready' ? q : undefined
    })
  await settled()
  const analysed = performance.now()
  // a completed questionnaire read as one to answer: its own answers are drafted again (issue 39)
  await call(paths.questionnaires.generate(id), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ include_existing: true }),
  })
  await settled()
  const generated = performance.now()
  // the export runs as a job (issue 37): its run is asked for until its file is written
  interface Run {
    id: number
    status: string
    error: string | null
    filled_file: { id: number; answers_written: number } | null
  }
  const exportStarted = await json<{ export: Run }>(paths.questionnaires.exportOriginal, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ questionnaire_id: id }),
  })
  const exported = await until(async () => {
    const { export: run } = await json<{ export: Run }>(
      paths.questionnaires.exportRun(exportStarted.export.id),
    )
    if (run.status === 'failed') throw new Error(`the export failed: ${run.error}`)
    return run.filled_file ? { filled_file: run.filled_file } : undefined
  })
  const file = await call(paths.questionnaires.filledFileDownload(exported.filled_file.id))
  const bytes = (await file.arrayBuffer()).byteLength
  const seconds = (performance.now() - started) / 1000
  const { questions: results } = await json<{
    questions: { answer: { status: string; choice: string | null; citations: unknown[] } }[]
  }>(paths.questionnaires.answers(id))
  const answered = results.filter((row) => row.answer.status === 'generated')
  console.log(
    JSON.stringify({
      bench: 'cross-framework',
      repository_files: files.length,
      repository_seconds: round(repositorySeconds, 2),
      questions: results.length,
      answered: answered.length,
      answered_with_choice: answered.filter((row) => row.answer.choice).length,
      cited: answered.filter((row) => row.answer.citations.length > 0).length,
      analysis_seconds: round((analysed - started) / 1000, 2),
      generation_seconds: round((generated - analysed) / 1000, 2),
      upload_to_export_seconds: round(seconds, 2),
      export_bytes: bytes,
      answers_written: exported.filled_file.answers_written,
    }),
  )
} finally {
  await stop()
  rmSync(dataDir, { recursive: true, force: true })
}
