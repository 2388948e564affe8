import { createServer } from 'node:http'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server that keeps every message it receives, and a small HTTP mailbox the journeys
 * read: GET /messages?to=<address> answers the parsed messages, newest last. Runs beside the
 * Quire server that Playwright starts; test-only.
 */

export interface CapturedMail {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  date: string
}

export async function startMailCapture(smtpPort: number, httpPort: number) {
  const messages: CapturedMail[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
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
            date: new Date().toISOString(),
          })
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve))

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== '/messages') {
      res.writeHead(404).end()
      return
    }
    const to = url.searchParams.get('to')?.toLowerCase()
    const list = to ? messages.filter((mail) => mail.to.includes(to)) : messages
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list))
  })
  await new Promise<void>((resolve) => http.listen(httpPort, '127.0.0.1', resolve))
  return {
    close: () =>
      Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => http.close(() => resolve())),
      ]),
  }
}
