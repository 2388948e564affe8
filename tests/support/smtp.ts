import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server for tests: it accepts every message on a free loopback port, parses it with
 * mailparser and keeps it. Point the app's mailer at `capture.url` (MAIL_TRANSPORT=smtp,
 * SMTP_URL=capture.url), then `waitFor(address)` and `linkIn(mail, '/reset-password')` read the
 * link exactly as a person would get it.
 */

export interface CapturedMail {
  /** Lower-cased recipient addresses. */
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  /** Header lines by lower-cased name (the value as sent, unfolded). */
  headers: Record<string, string>
  receivedAt: Date
}

export interface WaitOptions {
  subject?: RegExp
  /** 1-based: the n-th matching message. */
  nth?: number
  timeoutMs?: number
}

export interface MailCapture {
  /** `smtp://127.0.0.1:<port>` */
  url: string
  port: number
  readonly messages: readonly CapturedMail[]
  /** Messages received for an address, oldest first. */
  to(address: string): CapturedMail[]
  /** Waits for the n-th message to an address (matching the subject when given). */
  waitFor(address: string, options?: WaitOptions): Promise<CapturedMail>
  clear(): void
  close(): Promise<void>
}

export async function startSmtpCapture(port = 0): Promise<MailCapture> {
  const messages: CapturedMail[] = []
  const waiters = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap(
            (entry) => entry.value.map((address) => (address.address ?? '').toLowerCase()),
          )
          messages.push({
            to,
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            headers: Object.fromEntries(
              mail.headerLines.map((header) => [
                header.key,
                header.line
                  .slice(header.line.indexOf(':') + 1)
                  .replace(/\r?\n\s+/g, ' ')
                  .trim(),
              ]),
            ),
            receivedAt: new Date(),
          })
          for (const wake of waiters) wake()
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const actual = (server.server.address() as AddressInfo).port

  const to = (address: string) => messages.filter((mail) => mail.to.includes(address.toLowerCase()))

  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
    to,
    waitFor(address, options = {}) {
      const nth = options.nth ?? 1
      const find = () =>
        to(address).filter((mail) => !options.subject || options.subject.test(mail.subject))[
          nth - 1
        ]
      return new Promise<CapturedMail>((resolve, reject) => {
        const check = () => {
          const found = find()
          if (!found) return
          cleanup()
          resolve(found)
        }
        const timer = setTimeout(() => {
          cleanup()
          const seen = to(address).map((mail) => mail.subject)
          reject(
            new Error(
              `no mail #${nth} to ${address}${options.subject ? ` matching ${options.subject}` : ''} within ${options.timeoutMs ?? 5000} ms (got: ${JSON.stringify(seen)})`,
            ),
          )
        }, options.timeoutMs ?? 5000)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
    clear() {
      messages.length = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Every http(s) link in a message's text. */
export const linksIn = (mail: CapturedMail) => mail.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []

/** The first link in a message's text that points at the given path, as a URL. */
export function linkIn(mail: CapturedMail, pathname: string): URL {
  const link = linksIn(mail)
    .map((candidate) => new URL(candidate))
    .find((url) => url.pathname === pathname)
  if (!link) throw new Error(`no ${pathname} link in mail "${mail.subject}":\n${mail.text}`)
  return link
}
