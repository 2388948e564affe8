import type { MailMessage } from './index.ts'

/**
 * The messages Quire sends. Links are built only from the configured PUBLIC_URL, never from the
 * request's Host header, so a forged Host cannot point a mailed token at another site (LT7).
 */

export interface LinkTarget {
  publicUrl: string
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )

export function link(publicUrl: string, path: string, query: Record<string, string | number>) {
  // relative to PUBLIC_URL, so a deployment under a path prefix keeps its prefix
  const url = new URL(path.replace(/^\/+/, ''), `${publicUrl.replace(/\/+$/, '')}/`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value))
  return url.toString()
}

/** Words a person wrote (a comment), quoted under their name: never markup, never a link. */
export interface Quote {
  author: string
  words: string
}
/** A paragraph of Quire's own words, or a person's words quoted. */
export type Block = string | { quote: Quote }

/** Addresses in someone's words: shown as text, never made a link (issue 37, S4). */
const ADDRESS = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"']+/gi

/**
 * One line of quoted words as HTML: escaped, and each address split by a span where a mail
 * client's own link-finder looks for it ("://", "www."), so that it reads as text, not as a link.
 */
function quotedLine(line: string) {
  let html = ''
  let from = 0
  for (const match of line.matchAll(ADDRESS)) {
    const at = match.index ?? 0
    html += escapeHtml(line.slice(from, at))
    const address = match[0]
    const cut = address.startsWith('www.') ? 3 : address.indexOf('://')
    const mark = address.startsWith('www.') ? '.' : '://'
    html +=
      `<span style="color: #374151; text-decoration: none">${escapeHtml(address.slice(0, cut))}` +
      `<span>${mark}</span>${escapeHtml(address.slice(cut + mark.length))}</span>`
    from = at + address.length
  }
  return html + escapeHtml(line.slice(from))
}

const quoteLines = (words: string) => words.replace(/\r\n?/g, '\n').split('\n')

function blockText(block: Block) {
  if (typeof block === 'string') return [block, '']
  const { author, words } = block.quote
  return [`${author} wrote:`, ...quoteLines(words).map((line) => `> ${line}`.trimEnd()), '']
}

function blockHtml(block: Block) {
  if (typeof block === 'string') return `<p>${escapeHtml(block)}</p>`
  const { author, words } = block.quote
  return (
    `<p style="margin-bottom: 4px">${escapeHtml(author)} wrote:</p>` +
    '<blockquote style="margin: 0 0 16px; padding: 8px 12px; border-left: 4px solid #d1d5db; background: #f9fafb; color: #374151">' +
    `${quoteLines(words).map(quotedLine).join('<br>')}</blockquote>`
  )
}

export function compose(input: {
  to: string
  subject: string
  greeting: string
  paragraphs: Block[]
  action?: { label: string; url: string }
  footer?: string
  /** A one-click unsubscribe page, linked under the footer. */
  unsubscribe?: string
}): MailMessage {
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap(blockText),
    ...(input.action ? [`${input.action.label}: ${input.action.url}`, ''] : []),
    ...(input.footer ? [input.footer, ''] : []),
    ...(input.unsubscribe ? [`Unsubscribe: ${input.unsubscribe}`, ''] : []),
    '— Quire',
  ].join('\n')
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1f2937">',
    `<p>${escapeHtml(input.greeting)}</p>`,
    ...input.paragraphs.map(blockHtml),
    input.action
      ? `<p><a href="${escapeHtml(input.action.url)}">${escapeHtml(input.action.label)}</a></p>` +
        `<p style="font-size: 12px; color: #6b7280">Or paste this address into your browser: ${escapeHtml(input.action.url)}</p>`
      : '',
    input.footer
      ? `<p style="font-size: 12px; color: #6b7280">${escapeHtml(input.footer)}</p>`
      : '',
    input.unsubscribe
      ? `<p style="font-size: 12px; color: #6b7280"><a href="${escapeHtml(input.unsubscribe)}">Unsubscribe</a></p>`
      : '',
    '<p>— Quire</p></body></html>',
  ].join('')
  return { to: input.to, subject: input.subject, text, html }
}

export const greet = (firstName: string) => (firstName ? `Hello ${firstName},` : 'Hello,')

export function confirmationMail(
  target: LinkTarget,
  input: { to: string; firstName: string; token: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: 'Confirm your email address for Quire',
    greeting: greet(input.firstName),
    paragraphs: [
      'Thank you for registering with Quire. Please confirm your email address to activate your account.',
      'The link is valid for 24 hours.',
    ],
    action: {
      label: 'Confirm your email',
      url: link(target.publicUrl, '/confirm_email', { uuid: input.token }),
    },
    footer: 'If you did not register, you can ignore this message.',
  })
}

export function passwordResetMail(
  target: LinkTarget,
  input: { to: string; firstName: string; userId: number; token: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: 'Reset your Quire password',
    greeting: greet(input.firstName),
    paragraphs: [
      'Someone asked to reset the password of your Quire account. Use the link below to choose a new one.',
      'The link is valid for 1 hour and works once.',
    ],
    action: {
      label: 'Choose a new password',
      url: link(target.publicUrl, '/reset-password', { uid: input.userId, token: input.token }),
    },
    footer:
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
  })
}

export function inviteMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    organization: string
    inviter: string
    userId: number
    token: string
  },
): MailMessage {
  return compose({
    to: input.to,
    subject: `You are invited to ${input.organization} on Quire`,
    greeting: greet(input.firstName),
    paragraphs: [
      `${input.inviter} invited you to join ${input.organization} on Quire.`,
      'Set your password to activate your account. The link is valid for 7 days and works once.',
    ],
    action: {
      label: 'Set your password',
      url: link(target.publicUrl, '/set-password', { uid: input.userId, token: input.token }),
    },
  })
}

export function joinRequestMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    organization: string
    requester: string
    requesterEmail: string
  },
): MailMessage {
  return compose({
    to: input.to,
    subject: `${input.requester} asks to join ${input.organization} on Quire`,
    greeting: greet(input.firstName),
    paragraphs: [
      `${input.requester} (${input.requesterEmail}) registered with an address at your verified domain and asks to join ${input.organization}.`,
      'Approve or reject the request in Settings, under People.',
    ],
    action: { label: 'Open Settings', url: link(target.publicUrl, '/settings', {}) },
  })
}

export function joinApprovedMail(
  target: LinkTarget,
  input: { to: string; firstName: string; organization: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: `You can now sign in to ${input.organization} on Quire`,
    greeting: greet(input.firstName),
    paragraphs: [`An admin approved your request to join ${input.organization}.`],
    action: { label: 'Sign in', url: link(target.publicUrl, '/login', {}) },
  })
}

export function magicLinkMail(
  target: LinkTarget,
  input: { to: string; firstName: string; userId: number; token: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: 'Your sign-in link for Quire',
    greeting: greet(input.firstName),
    paragraphs: [
      'Your administrator sent you a link to sign in to Quire without your password.',
      'The link works once, within 10 minutes. If you did not expect it, ignore this email and tell your administrator.',
    ],
    action: {
      label: 'Sign in to Quire',
      url: link(target.publicUrl, '/magic-link', { uid: input.userId, token: input.token }),
    },
  })
}

export function passwordChangedMail(
  target: LinkTarget,
  input: { to: string; firstName: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: 'Your Quire password was changed',
    greeting: greet(input.firstName),
    paragraphs: [
      'The password of your Quire account was just changed, and every other session was signed out.',
      'If this was not you, ask for a new password at once and tell your administrator.',
    ],
    action: { label: 'Sign in', url: link(target.publicUrl, '/login', {}) },
  })
}

export function domainMovedMail(
  target: LinkTarget,
  input: { to: string; firstName: string; domain: string; organization: string },
): MailMessage {
  return compose({
    to: input.to,
    subject: `${input.domain} is no longer a verified domain of ${input.organization}`,
    greeting: greet(input.firstName),
    paragraphs: [
      `Another organisation on Quire proved that it controls ${input.domain} with a DNS record, so the domain now belongs to it. ${input.organization} had verified it only through an administrator's mailbox, which a DNS proof outranks.`,
      `People at ${input.domain} can no longer ask to join ${input.organization}, and single sign-on no longer applies to new addresses there. Your members keep their accounts.`,
      'If your organisation controls this domain, add the DNS record shown in Settings and verify it again.',
    ],
    action: { label: 'Open settings', url: link(target.publicUrl, '/settings', {}) },
  })
}

/** The weekly list of library answers an owner should confirm (issue 28). */
export function reviewDueMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    organization: string
    items: { question: string; freshness: 'due' | 'stale'; dueAt: Date }[]
    more: number
  },
): MailMessage {
  const stale = input.items.filter((item) => item.freshness === 'stale').length
  const count = input.items.length + input.more
  const day = (at: Date) => at.toISOString().slice(0, 10)
  return compose({
    to: input.to,
    subject: `${count} library ${count === 1 ? 'answer needs' : 'answers need'} your review`,
    greeting: greet(input.firstName),
    paragraphs: [
      `You own ${count} ${count === 1 ? 'answer' : 'answers'} in the ${input.organization} library that ${count === 1 ? 'is' : 'are'} due for review${stale ? `, ${stale} of them already past ${stale === 1 ? 'its' : 'their'} review date` : ''}. Quire still uses them, but never with High confidence once they are stale.`,
      ...input.items.map(
        (item) =>
          `• ${item.question.length > 160 ? `${item.question.slice(0, 159)}…` : item.question} (${item.freshness === 'stale' ? 'stale since' : 'due'} ${day(item.dueAt)})`,
      ),
      ...(input.more ? [`…and ${input.more} more.`] : []),
      'Confirm each one that is still true with one click, or edit or retire it.',
    ],
    action: {
      label: 'Open the review queue',
      url: link(target.publicUrl, '/knowledge-base', { tab: 'review' }),
    },
    footer: `You receive this because you own answers in the ${input.organization} library. An admin can turn these emails off in Settings.`,
  })
}
