import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { formatEntry, formatLine, logDestination } from '../../server/log-format.ts'
import { createLogger } from '../../server/logger.ts'
import { createMailer } from '../../server/mail/index.ts'
import { confirmationMail } from '../../server/mail/messages.ts'

/**
 * Issue 30: on a terminal the log is readable lines (the address, each email's subject and link,
 * warnings and errors with their error and request id), with no line per static file and API
 * calls only at debug; elsewhere, or with LOG_FORMAT=json, it stays JSON.
 */

function terminal(level = 'info') {
  let text = ''
  const out = {
    write(chunk: string) {
      text += chunk
    },
  }
  const destination = logDestination('pretty', level, out)
  if (!destination) throw new Error('pretty format gave no destination')
  return { logger: createLogger(level, destination), text: () => text }
}

const TIME = /^\d\d:\d\d:\d\d /
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-log-format-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('readable log lines', () => {
  it('print the address the server runs at as one plain line', () => {
    const { logger, text } = terminal()
    logger.info(
      { url: 'http://localhost:3000', port: 3000, dataDir: '/srv/quire' },
      'Quire is running at http://localhost:3000',
    )
    expect(text()).toMatch(/^\d\d:\d\d:\d\d INFO {2}Quire is running at http:\/\/localhost:3000\n$/)
  })

  it("print each email's recipient, subject and link on lines of their own", async () => {
    const { logger, text } = terminal()
    const mailer = createMailer({ transport: 'log', from: 'Quire <q@localhost>', logger })
    mailer.send(
      confirmationMail(
        { publicUrl: 'http://localhost:3000' },
        { to: 'ann@example.com', firstName: 'Ann', token: 'T1' },
      ),
    )
    await mailer.close()
    const lines = text().trimEnd().split('\n')
    expect(lines[0]).toMatch(TIME)
    expect(lines[0]).toMatch(/INFO {2}Mail to ann@example\.com$/)
    expect(lines[1]?.trim()).toMatch(/^Subject: \S/)
    expect(lines).toContain(`${' '.repeat(15)}Link: http://localhost:3000/confirm_email?uuid=T1`)
    expect(text()).not.toContain('{')
    expect(text()).not.toContain('\\n')
  })

  it('give static files no line, and API calls a line only at debug level', () => {
    const asset = { method: 'GET', path: '/assets/index-3f2a.js', status: 200, ms: 1.2 }
    const call = { method: 'GET', path: '/api/v1/files', status: 200, ms: 3.4 }
    const atInfo = terminal('info')
    atInfo.logger.child({ reqId: 'req-00000001' }).info(asset, 'request')
    atInfo.logger.child({ reqId: 'req-00000002' }).info(call, 'request')
    expect(atInfo.text()).toBe('')

    const atDebug = terminal('debug')
    atDebug.logger.child({ reqId: 'req-00000003' }).info(asset, 'request')
    atDebug.logger
      .child({ reqId: 'req-00000004' })
      .debug({ ...call, path: '/fonts/inter.woff2' }, 'request')
    atDebug.logger.child({ reqId: 'req-00000005' }).info(call, 'request')
    expect(atDebug.text()).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}GET \/api\/v1\/files 200 3\.4 ms {2}request req-00000005\n$/,
    )
  })

  it('show warnings and errors with their level, message, error and request id', () => {
    const { logger, text } = terminal('warn')
    logger.info('not shown at warn')
    logger.warn({ err: new Error('connect ECONNREFUSED'), attempt: 1 }, 'mail failed, retrying')
    logger.child({ reqId: 'req-12345678' }).error({ err: new TypeError('boom') }, 'unhandled error')
    const lines = text().trimEnd().split('\n')
    expect(lines[0]).toMatch(TIME)
    expect(lines[0]).toMatch(/WARN {2}mail failed, retrying: connect ECONNREFUSED {2}attempt=1$/)
    expect(lines[1]).toMatch(/ERROR unhandled error: TypeError: boom {2}request req-12345678$/)
    // an error's stack follows it, indented
    expect(lines[2]).toMatch(/^ {17}at /)
    expect(text()).not.toContain('not shown')
  })

  it('keep redacting tokens, and pass through what is not a log entry', () => {
    const { logger, text } = terminal('warn')
    logger.warn({ body: { token: 'secret-token-value' } }, 'odd body')
    expect(text()).not.toContain('secret-token-value')
    expect(formatLine('plain words\n', { level: 'info' })).toBe('plain words\n')
  })

  it('colour the level on a terminal only', () => {
    const entry = { level: 50, time: new Date().toISOString(), msg: 'failed' }
    expect(formatEntry(entry, { level: 'info', colour: true })).toContain('\u001b[31mERROR')
    expect(formatEntry(entry, { level: 'info' })).not.toContain('\u001b[')
  })
})

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON otherwise, unless set', () => {
    expect(loadConfig({ DATA_DIR: dataDir }, true).LOG_FORMAT).toBe('pretty')
    expect(loadConfig({ DATA_DIR: dataDir }, false).LOG_FORMAT).toBe('json')
    expect(loadConfig({ DATA_DIR: dataDir, LOG_FORMAT: 'json' }, true).LOG_FORMAT).toBe('json')
    expect(loadConfig({ DATA_DIR: dataDir, LOG_FORMAT: 'pretty' }, false).LOG_FORMAT).toBe('pretty')
    expect(() => loadConfig({ DATA_DIR: dataDir, LOG_FORMAT: 'xml' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATA_DIR: dataDir, LOG_FORMAT: 'xml' })).toThrow(
      /LOG_FORMAT: must be pretty or json/,
    )
  })

  it("json leaves pino's own JSON lines", () => {
    // no destination of ours: pino writes its JSON lines to stdout
    expect(logDestination('json', 'info')).toBeUndefined()
  })
})
