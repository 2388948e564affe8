import { afterAll, describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { freePort } from '../../server/db/embedded.ts'
import { MAIL_LOG_NOTICE } from '../../server/mail/index.ts'
import { newAccount } from '../support/account.ts'
import { serverProcesses } from '../support/server-process.ts'

/**
 * Issue 30: the real server with readable logs (LOG_FORMAT=pretty, as a terminal gets them; the
 * pipe here would get JSON): the address on a line of its own, the confirmation email's subject
 * and link on lines of their own, no line for the files a browser loads, no JSON.
 */

const procs = serverProcesses('terminal')
afterAll(procs.cleanup)

async function waitFor(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && !check()) await new Promise((resolve) => setTimeout(resolve, 50))
  return check()
}

describe('the server on a terminal', () => {
  it('prints the address, then each email with its link, in readable lines', async () => {
    const port = await freePort()
    const server = procs.start(port, {
      capture: true,
      env: { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info', MAIL_TRANSPORT: 'log' },
    })
    await procs.waitHealthy(port, server, 120_000)
    const url = `http://localhost:${port}`
    const running = new RegExp(`^\\d\\d:\\d\\d:\\d\\d INFO  Quire is running at ${url}$`, 'm')
    expect(await waitFor(() => running.test(server.output()), 10_000)).toBe(true)
    // where the emails go, said at once (issue 39)
    expect(server.output()).toContain(MAIL_LOG_NOTICE)

    // what a browser loads: the page, its scripts and its icon
    for (const file of ['/', '/favicon.svg', '/assets/index.js', '/login']) {
      await fetch(`http://127.0.0.1:${port}${file}`).then((res) => res.arrayBuffer())
    }
    const account = newAccount('terminal')
    const registered = await fetch(`http://127.0.0.1:${port}${apiPath(paths.auth.register)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    })
    expect(registered.status).toBeLessThan(300)
    const link = new RegExp(`^ +Link: ${url}/confirm_email\\?uuid=\\S+$`, 'm')
    expect(await waitFor(() => link.test(server.output()), 30_000)).toBe(true)

    const lines = server.output().trimEnd().split('\n')
    const mail = lines.findIndex((line) => line.endsWith(`Mail to ${account.email}`))
    expect(mail).toBeGreaterThan(lines.findIndex((line) => running.test(line)))
    expect(lines[mail + 1]).toMatch(/^ +Subject: \S/)
    expect(lines.slice(mail + 2).some((line) => link.test(line))).toBe(true)
    // no JSON, no line per request at info level
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([])
    expect(server.output()).not.toMatch(/favicon|\/assets\/|GET \//)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toMatch(/INFO {2}stopped$/m)
  }, 180_000)
})
