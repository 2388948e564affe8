import { paths } from '../../contract/paths.ts'
import type { ExportFormat, ExportRun, FilledFile } from '../../contract/questionnaires.ts'
import { apiCall, type Requester } from './api-call.ts'

/**
 * Exports as the suites ask for them (issue 37): the POST answers 202 with a run at once, and the
 * run is asked for until its file is written or it failed. One place for every suite: the in-process
 * app (`exported`) and a real server process (`exportedVia` with the fault suites' client).
 */

const Q = paths.questionnaires

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any
interface Answer {
  status: number
  body: Body
}
/** What calls the API as one person: the fault suites' client has this shape. */
export interface ExportCaller {
  post(path: string, body: unknown): Promise<Answer>
  get(path: string): Promise<Answer>
}

export interface Exported {
  /** The POST's status: 202 when the run was accepted, else the refusal's. */
  status: number
  /** The POST's body when refused; else the run's last answer (`{ export }`). */
  body: Body
  /** The run as it ended (done or failed); undefined when the POST was refused. */
  run?: ExportRun
  /** The run's filled file once done. */
  filled_file?: FilledFile
}

/** Asks for a run until it is done or failed (or `timeoutMs` passes). */
export async function finished(api: ExportCaller, id: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await api.get(Q.exportRun(id))
    if (res.status !== 200)
      throw new Error(`export ${id}: ${res.status} ${JSON.stringify(res.body)}`)
    const run = res.body.export as ExportRun
    if (run.status === 'done' || run.status === 'failed') return { res, run }
    if (Date.now() > deadline)
      throw new Error(`export ${id} never finished: ${JSON.stringify(run)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * Exports and waits for the run: to the original file, or, with a `format` of xlsx or csv (or
 * `path: Q.exportBasic`), the basic table.
 */
export async function exportedVia(
  api: ExportCaller,
  body: { questionnaire_id: number; format?: ExportFormat },
  options: { path?: string; timeoutMs?: number } = {},
): Promise<Exported> {
  const basic = body.format !== undefined && body.format !== 'original'
  const path = options.path ?? (basic ? Q.exportBasic : Q.exportOriginal)
  const started = await api.post(path, basic ? body : { questionnaire_id: body.questionnaire_id })
  if (started.status !== 202) return { status: started.status, body: started.body }
  const { res, run } = await finished(api, started.body.export.id, options.timeoutMs)
  return {
    status: started.status,
    body: res.body,
    run,
    filled_file: run.filled_file ?? undefined,
  }
}

/** The same against an in-process app (`withTestApp`), as the person whose token this is. */
export function exported(
  ctx: { app: { request: Requester } },
  token: string,
  body: { questionnaire_id: number; format?: ExportFormat },
  options: { path?: string; timeoutMs?: number } = {},
) {
  const call = (method: string, path: string, payload?: unknown) =>
    apiCall((at, init) => ctx.app.request(at, init), method, path, { body: payload, token })
  return exportedVia(
    { post: (path, payload) => call('POST', path, payload), get: (path) => call('GET', path) },
    body,
    options,
  )
}
