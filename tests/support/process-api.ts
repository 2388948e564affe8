import { expect } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'

/**
 * The API of a real server process, as the fault suites call it (faults, outage): JSON calls and
 * uploads with a bearer token, waiting for a questionnaire to settle, and a CSV questionnaire of
 * any size.
 */

const Q = paths.questionnaires

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
export type Body = any

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function client(port: number, token: string) {
  const base = `http://127.0.0.1:${port}`
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${apiPath(route)}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let parsed: Body = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body: parsed }
  }
  return {
    get: (route: string) => call('GET', route),
    post: (route: string, body: unknown = {}) => call('POST', route, body),
    async upload(name: string, data: Buffer | string) {
      const form = new FormData()
      form.append('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name)
      const res = await fetch(`${base}${apiPath(Q.upload)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      return { status: res.status, body: (await res.json()) as Body }
    },
  }
}
export type Client = ReturnType<typeof client>

/** A questionnaire of `count` questions about encrypting backups, as CSV. */
export const backupQuestions = (count: number) =>
  [
    'ID,Question,Answer',
    ...Array.from(
      { length: count },
      (_, i) =>
        `BK-${String(i + 1).padStart(4, '0')},Do you encrypt the backups of system ${i + 1} at rest?,`,
    ),
  ].join('\n')

export async function until<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined) return value
    await sleep(50)
  }
  throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`)
}

export async function settled(api: Client, id: number, timeoutMs = 60_000) {
  return until(
    `questionnaire ${id} to settle`,
    async () => {
      const res = await api.get(Q.get(id))
      return ['ready', 'failed'].includes(res.body.status) ? (res.body as Body) : undefined
    },
    timeoutMs,
  )
}

export async function analysed(api: Client, name: string, csv: string) {
  const res = await api.upload(name, csv)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const done = await settled(api, res.body.id)
  expect(done.status, done.error).toBe('ready')
  return done
}
