import { type CapturedMail, linkIn, type MailCapture } from './smtp.ts'

/**
 * The one-time links the server mails (an invitation's, a password reset's, an email
 * confirmation's), as the tests read them: the token of a link, the link of a mail once the
 * mailer has sent it, and the API's answer to a link that is wrong, used or expired.
 */

/** The token of a mailed link. */
export function tokenOf(mail: CapturedMail, pathname: string) {
  const url = linkIn(mail, pathname)
  return {
    url,
    uid: url.searchParams.get('uid') ?? '',
    token: url.searchParams.get('token') ?? url.searchParams.get('uuid') ?? '',
  }
}

/** Which mail `mailedLink` reads: its subject, the path its link points at, the n-th such mail. */
interface MailedLinkOptions {
  subject: RegExp
  pathname: string
  nth?: number
}

/**
 * The n-th mail to `email` with the subject, once the app's mailer has sent all it holds: the
 * mail, and its link to `pathname` with the link's uid and token.
 */
export async function mailedLink(
  app: { mailer: { idle(): Promise<unknown> } },
  smtp: MailCapture,
  email: string,
  { subject, pathname, nth = 1 }: MailedLinkOptions,
) {
  await app.mailer.idle()
  const mail = await smtp.waitFor(email, { subject, nth })
  return { mail, ...tokenOf(mail, pathname) }
}

/** The answer to a one-time link that is wrong, used or expired, with the spec's text. */
export const invalidTokenError = (text: string) => ({
  error: text,
  msg: text,
  code: 'invalid_token',
})
