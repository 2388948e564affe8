import { Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../server/db/embedded.ts'
import { createLogger } from '../../server/logger.ts'
import { createMailer } from '../../server/mail/index.ts'
import {
  confirmationMail,
  inviteMail,
  passwordChangedMail,
  passwordResetMail,
} from '../../server/mail/messages.ts'
import { linkIn, type MailCapture, startSmtpCapture } from '../support/smtp.ts'

function memoryLogger() {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { logger: createLogger('info', sink), lines }
}

describe('mail', () => {
  const captures: MailCapture[] = []
  afterAll(async () => {
    for (const capture of captures) await capture.close()
  })

  it('builds every link from PUBLIC_URL, keeping a path prefix', () => {
    const target = { publicUrl: 'https://quire.example.com/app' }
    expect(confirmationMail(target, { to: 'a@x.io', firstName: 'A', token: 'T1' }).text).toContain(
      'https://quire.example.com/app/confirm_email?uuid=T1',
    )
    const reset = passwordResetMail(target, { to: 'a@x.io', firstName: '', userId: 7, token: 'T2' })
    expect(reset.text).toContain('https://quire.example.com/app/reset-password?uid=7&token=T2')
    expect(reset.text).toContain('Hello,')
    const invite = inviteMail(target, {
      to: 'a@x.io',
      firstName: 'Grace',
      organization: 'Acme <Labs>',
      inviter: 'Ada',
      userId: 8,
      token: 'T3',
    })
    expect(invite.text).toContain('https://quire.example.com/app/set-password?uid=8&token=T3')
    expect(invite.html).toContain('Acme &lt;Labs&gt;')
    expect(invite.html).not.toContain('<Labs>')
    expect(passwordChangedMail(target, { to: 'a@x.io', firstName: 'A' }).subject).not.toMatch(
      /reset/i,
    )
  })

  it('the log transport prints each message with its full link at info level', async () => {
    const { logger, lines } = memoryLogger()
    const mailer = createMailer({ transport: 'log', from: 'Quire <q@x.io>', logger })
    mailer.send(
      confirmationMail(
        { publicUrl: 'http://localhost:3000' },
        {
          to: 'new@x.io',
          firstName: 'N',
          token: 'LINK-TOKEN',
        },
      ),
    )
    await mailer.idle()
    const entry = JSON.parse(lines.find((line) => line.includes('new@x.io')) ?? '{}')
    expect(entry.level).toBe(30)
    expect(entry.to).toBe('new@x.io')
    expect(entry.msg).toContain('http://localhost:3000/confirm_email?uuid=LINK-TOKEN')
    expect(entry.links).toEqual(['http://localhost:3000/confirm_email?uuid=LINK-TOKEN'])
  })

  it('sends over SMTP, where the capture parses it and finds the link', async () => {
    const capture = await startSmtpCapture()
    captures.push(capture)
    const mailer = createMailer({
      transport: 'smtp',
      smtpUrl: capture.url,
      from: 'Quire <q@x.io>',
      logger: createLogger('silent'),
    })
    mailer.send(
      passwordResetMail(
        { publicUrl: 'http://q.test' },
        {
          to: 'Someone@X.io',
          firstName: 'S',
          userId: 3,
          token: 'abc',
        },
      ),
    )
    await mailer.idle()
    const mail = await capture.waitFor('someone@x.io', { subject: /reset/i })
    expect(mail.from).toContain('q@x.io')
    expect(linkIn(mail, '/reset-password').searchParams.get('token')).toBe('abc')
    expect(mail.html).toContain('href="http://q.test/reset-password?uid=3&amp;token=abc"')
    await mailer.close()
  })

  it('retries a failed delivery in the background, and gives up quietly after its retries', async () => {
    const port = await freePort()
    const { logger, lines } = memoryLogger()
    const mailer = createMailer({
      transport: 'smtp',
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Quire <q@x.io>',
      logger,
      retryDelaysMs: [150, 400],
    })
    mailer.send(
      passwordChangedMail({ publicUrl: 'http://q.test' }, { to: 'r@x.io', firstName: '' }),
    )
    // the server comes up only after the first attempt has failed
    await new Promise((resolve) => setTimeout(resolve, 60))
    const capture = await startSmtpCapture(port)
    captures.push(capture)
    await mailer.idle()
    expect((await capture.waitFor('r@x.io')).subject).toBe('Your Quire password was changed')
    expect(lines.some((line) => line.includes('retrying'))).toBe(true)

    const dead = createMailer({
      transport: 'smtp',
      smtpUrl: `smtp://127.0.0.1:${await freePort()}`,
      from: 'Quire <q@x.io>',
      logger,
      retryDelaysMs: [10],
    })
    dead.send(passwordChangedMail({ publicUrl: 'http://q.test' }, { to: 'z@x.io', firstName: '' }))
    await dead.idle()
    expect(lines.some((line) => line.includes('mail not sent'))).toBe(true)
  })
})
