import { expect } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { get, insertUser, signIn, type TestApp } from '../auth/helpers.ts'

/**
 * Steps the questionnaire API tests share (api.test.ts, api-answers.test.ts, api-exports.test.ts),
 * bound to the test file's app: a signed-in member, an upload, a questionnaire once analysed, a
 * download's bytes, and the answers list.
 */

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
export type Body = any
const Q = paths.questionnaires

/** The steps, each calling `ctx`. */
export function questionnaireSteps(ctx: TestApp) {
  /** A member (approver) of a new organisation, or of `orgId`, with an access token. */
  async function member(orgId?: number) {
    const fixture = await insertUser(ctx.database, { role: 'approver', orgId })
    const session = await signIn(ctx, fixture.email)
    return { ...fixture, token: session.access }
  }

  /** Uploads a file as a questionnaire (anonymously without `token`): the status and body. */
  async function upload(token: string | undefined, name: string, data: Buffer) {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(data)]), name)
    const res = await ctx.app.request(apiPath(Q.upload), {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    })
    return { status: res.status, body: (await res.json()) as Body }
  }

  /** The questionnaire once its analysis has finished, ready or failed. */
  async function ready(token: string, id: number) {
    for (let i = 0; i < 300; i++) {
      const res = await get(ctx, Q.get(id), token)
      if (['ready', 'failed'].includes(res.body.status)) return res.body
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`questionnaire ${id} never finished analysing`)
  }

  /** Uploads a file and waits until it is analysed; both must succeed. */
  async function analysed(token: string, name: string, data: Buffer) {
    const res = await upload(token, name, data)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const done = await ready(token, res.body.id)
    expect(done.status, done.error).toBe('ready')
    return done
  }

  /** A download's status, headers and bytes. */
  async function binary(path: string, token: string) {
    const res = await ctx.app.request(apiPath(path), {
      headers: { authorization: `Bearer ${token}` },
    })
    return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) }
  }

  /** The answers list of a questionnaire, with an optional query string. */
  const answersOf = async (token: string, id: number, query = '') =>
    (await get(ctx, `${Q.answers(id)}${query}`, token)).body

  return { member, upload, ready, analysed, binary, answersOf }
}
