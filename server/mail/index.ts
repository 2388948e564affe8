import nodemailer from 'nodemailer'
import type { Logger } from '../logger.ts'

/**
 * Outgoing mail. Messages carry raw link tokens, so they never go through the database (a pg-boss
 * job's data would keep the token in a table, against LT3): a request hands its messages here
 * after its transaction commits, and they are sent in the background of this process with a few
 * retries. Requests never wait for delivery, so known and unknown addresses answer alike (LT6).
 */

/** The start's line under MAIL_TRANSPORT=log (issue 39): emails are printed, not sent. */
export const MAIL_LOG_NOTICE =
  'Emails are not sent (MAIL_TRANSPORT=log): each one is printed here with its links. Set MAIL_TRANSPORT=smtp and SMTP_URL to send them.'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /** Extra headers, such as List-Unsubscribe (RFC 8058) on notification emails. */
  headers?: Record<string, string>
}

export interface Mailer {
  /** Queues a message for background delivery; never throws. */
  send(message: MailMessage): void
  /**
   * Works out in the background which messages to send (looking accounts up, issuing links) and
   * sends them: the request that asked answers at once, in the same time whether or not anything
   * is sent (AS1, LT6). `idle()` waits for this work too.
   */
  later(compose: () => Promise<MailMessage[]>): void
  /** Resolves when every queued message is delivered or has given up (tests, shutdown). */
  idle(): Promise<void>
  close(): Promise<void>
}

export interface MailerOptions {
  transport: 'log' | 'smtp'
  smtpUrl?: string
  from: string
  logger: Logger
  /** Waits before each retry; the default gives up after about a minute. */
  retryDelaysMs?: number[]
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000]

export function createMailer(options: MailerOptions): Mailer {
  const log = options.logger.child({ component: 'mail' })
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const pending = new Set<Promise<void>>()
  let closed = false

  const transporter =
    options.transport === 'smtp'
      ? nodemailer.createTransport(options.smtpUrl ?? '', { from: options.from })
      : undefined

  async function deliver(message: MailMessage) {
    if (!transporter) {
      // MAIL_TRANSPORT=log: print the whole message so that a newcomer can follow its links
      const links = message.text.match(/https?:\/\/\S+/g) ?? []
      log.info(
        { to: message.to, subject: message.subject, links },
        `mail to ${message.to}: ${message.subject}\n\n${message.text}`,
      )
      return
    }
    await transporter.sendMail({ from: options.from, ...message })
    log.info({ to: message.to, subject: message.subject }, 'mail sent')
  }

  async function deliverWithRetries(message: MailMessage) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await deliver(message)
        return
      } catch (error) {
        const delay = retryDelays[attempt]
        if (delay === undefined || closed) {
          log.error({ err: error, to: message.to, subject: message.subject }, 'mail not sent')
          return
        }
        log.warn({ err: error, to: message.to, attempt: attempt + 1 }, 'mail failed, retrying')
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    }
  }

  return {
    send(message) {
      const job = deliverWithRetries(message).finally(() => pending.delete(job))
      pending.add(job)
    },
    later(compose) {
      const job: Promise<void> = compose()
        .then(
          (messages) => {
            for (const message of messages) this.send(message)
          },
          (error: unknown) => log.error({ err: error }, 'mail not composed'),
        )
        .finally(() => pending.delete(job))
      pending.add(job)
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending])
    },
    async close() {
      closed = true
      await this.idle()
      transporter?.close()
    },
  }
}
