import { createServer } from 'node:http'
import { type CapturedMail as Captured, startSmtpCapture } from '../../tests/support/smtp.ts'

/**
 * The tests' real SMTP capture (tests/support/smtp.ts) on a fixed port, and a small HTTP mailbox
 * the journeys read: GET /messages?to=<address> answers the parsed messages, newest last. Runs
 * beside the Quire server that Playwright starts; test-only.
 */

/** A captured message as the mailbox answers it (JSON: the time as an ISO string). */
export type CapturedMail = Omit<Captured, 'receivedAt'> & { receivedAt: string }

export async function startMailCapture(smtpPort: number, httpPort: number) {
  const capture = await startSmtpCapture(smtpPort)
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== '/messages') {
      res.writeHead(404).end()
      return
    }
    const to = url.searchParams.get('to')
    const list = to ? capture.to(to) : capture.messages
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list))
  })
  await new Promise<void>((resolve) => http.listen(httpPort, '127.0.0.1', resolve))
  return {
    close: () =>
      Promise.all([capture.close(), new Promise<void>((resolve) => http.close(() => resolve()))]),
  }
}
