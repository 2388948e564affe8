import type { MailMessage } from './index.ts'
import { type Block, compose, greet, type LinkTarget, link, type Quote } from './messages.ts'

/**
 * The notification emails (issues 29 and 37): one as it happens, the daily email of work due, and
 * the digest that gathers a flood of mentions. What a person wrote is quoted under their name,
 * never put in a subject, and its addresses are never made links (S4).
 */

/** How a notification email links back: the question in the app, and the unsubscribe page. */
export interface NotificationLinks {
  questionnaireId: number | null
  questionId: number | null
  /** The unsubscribe page's token, and the API address a mail client POSTs to (RFC 8058). */
  unsubscribeToken: string
  oneClickUrl: string
}

const workspaceLink = (publicUrl: string, links: NotificationLinks) =>
  links.questionnaireId
    ? link(
        publicUrl,
        `/questionnaire/${links.questionnaireId}`,
        links.questionId ? { question: links.questionId } : {},
      )
    : link(publicUrl, '/', {})

const unsubscribing = (target: LinkTarget, links: NotificationLinks) => ({
  unsubscribe: link(target.publicUrl, '/unsubscribe', { token: links.unsubscribeToken }),
  headers: {
    'List-Unsubscribe': `<${links.oneClickUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
})

/** Quoted words are long enough to read, not a whole document. */
const QUOTED = 2_000
const quoted = (quote: Quote | null | undefined): Block[] =>
  quote?.words
    ? [
        {
          quote: {
            author: quote.author,
            words:
              quote.words.length > QUOTED ? `${quote.words.slice(0, QUOTED - 1)}…` : quote.words,
          },
        },
      ]
    : []

const FOOTER = 'You can choose how Quire tells you about each kind of news in your settings.'

/**
 * One notification as it happens (issue 29): assigned, mentioned, changes requested, approved.
 * A subject given names only who did it and where; otherwise the sentence is the subject.
 */
export function notificationMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    text: string
    subject?: string
    quote?: Quote | null
    links: NotificationLinks
  },
): MailMessage {
  const { unsubscribe, headers } = unsubscribing(target, input.links)
  const subject = input.subject ?? input.text
  const message = compose({
    to: input.to,
    subject: subject.length > 120 ? `${subject.slice(0, 119)}…` : subject,
    greeting: greet(input.firstName),
    paragraphs: [input.text, ...quoted(input.quote)],
    action: { label: 'Open the question', url: workspaceLink(target.publicUrl, input.links) },
    footer: FOOTER,
    unsubscribe,
  })
  return { ...message, headers }
}

/**
 * The mentions and comments a person was told of past the first few in a short window, gathered
 * into one email at the window's end (issue 37): each with who wrote it, where, and its words.
 */
export function gatheredMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    items: { text: string; quote?: Quote | null; links: NotificationLinks }[]
    more: number
    links: NotificationLinks
  },
): MailMessage {
  const { unsubscribe, headers } = unsubscribing(target, input.links)
  const count = input.items.length + input.more
  const message = compose({
    to: input.to,
    subject: `${count} new ${count === 1 ? 'mention or comment' : 'mentions and comments'} for you on Quire`,
    greeting: greet(input.firstName),
    paragraphs: [
      'So that your inbox stays readable, Quire gathered these into one email:',
      ...input.items.flatMap((item) => [
        `• ${item.text}: ${workspaceLink(target.publicUrl, item.links)}`,
        ...quoted(item.quote),
      ]),
      ...(input.more ? [`…and ${input.more} more in Quire.`] : []),
    ],
    action: { label: 'Open Quire', url: link(target.publicUrl, '/', {}) },
    footer: FOOTER,
    unsubscribe,
  })
  return { ...message, headers }
}

/** The daily email of work due soon or overdue (issue 29): one per person, every item listed. */
export function workDueMail(
  target: LinkTarget,
  input: {
    to: string
    firstName: string
    items: { text: string; links: NotificationLinks }[]
    links: NotificationLinks
  },
): MailMessage {
  const { unsubscribe, headers } = unsubscribing(target, input.links)
  const count = input.items.length
  const message = compose({
    to: input.to,
    subject: `${count} ${count === 1 ? 'reminder' : 'reminders'} about your questionnaire work`,
    greeting: greet(input.firstName),
    paragraphs: [
      'Work assigned to you is due soon or overdue:',
      ...input.items.map(
        (item) => `• ${item.text}: ${workspaceLink(target.publicUrl, item.links)}`,
      ),
    ],
    action: { label: 'Open my work', url: link(target.publicUrl, '/my-work', {}) },
    footer: 'You receive this daily while work assigned to you is due or overdue.',
    unsubscribe,
  })
  return { ...message, headers }
}
