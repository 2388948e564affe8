import { expect } from '@playwright/test'
import { MAILBOX_PORT } from './env.ts'
import type { CapturedMail } from './mail-capture.ts'

/** Messages the SMTP capture received for an address. */
export async function mailsTo(address: string): Promise<CapturedMail[]> {
  const res = await fetch(
    `http://127.0.0.1:${MAILBOX_PORT}/messages?to=${encodeURIComponent(address.toLowerCase())}`,
  )
  return (await res.json()) as CapturedMail[]
}

/** Waits for the n-th message (1-based) to an address whose subject matches, and returns it. */
export async function waitForMail(
  address: string,
  subject: RegExp,
  nth = 1,
): Promise<CapturedMail> {
  let found: CapturedMail | undefined
  await expect
    .poll(
      async () => {
        const matching = (await mailsTo(address)).filter((mail) => subject.test(mail.subject))
        found = matching[nth - 1]
        return Boolean(found)
      },
      { timeout: 15_000, message: `mail to ${address} matching ${subject}` },
    )
    .toBe(true)
  return found as CapturedMail
}

/** The first link in a message's text that points at the given app path. */
export function linkIn(mail: CapturedMail, pathname: string): string {
  const links = mail.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []
  const link = links.find((candidate) => new URL(candidate).pathname === pathname)
  if (!link) throw new Error(`no ${pathname} link in mail "${mail.subject}":\n${mail.text}`)
  return link
}
