/**
 * The default terms and privacy policy of an instance whose operator has not given their own
 * (issue 30). They are plain, say who runs the instance, and say only what this software does:
 * what it keeps, where, and what leaves the machine (mail, and a language model only when the
 * operator configured one).
 */

export interface InstanceFacts {
  /** Who runs the instance: OPERATOR_NAME, else the instance's address. */
  operator: string
  /** How to reach them: OPERATOR_EMAIL, else null. */
  contact: string | null
  /** The instance's address (PUBLIC_URL). */
  address: string
  /** The host of the language model the operator configured, or null. */
  llmHost: string | null
}

const reach = (facts: InstanceFacts) =>
  facts.contact
    ? `Write to ${facts.operator} at [${facts.contact}](mailto:${facts.contact}).`
    : `Ask ${facts.operator}, or your organisation's administrator on this instance.`

export function defaultTerms(facts: InstanceFacts): string {
  return `This instance of Quire, at ${facts.address}, is run by **${facts.operator}**. These terms apply until its operator publishes their own.

## Who may use it
People who register an organisation here, and the people an organisation's administrators invite. Each organisation's administrators decide who belongs to it and what each person may do.

## Your content
The documents, answers and questionnaires your organisation adds stay yours. ${facts.operator} keeps them only to run this service for you, and no other organisation can see them. Your administrators can delete them at any time.

## Fair use
Add only content you are allowed to share with this service. Do not try to reach another organisation's data, to break the service's security, or to overload it.

## Drafted answers
Quire drafts answers from your own documents and approved answers, with their sources, and says when it has no evidence. Drafts are drafts: a person in your organisation reviews and approves what is sent to a customer.

## No warranty
The service is provided as it is. ${facts.operator} may change or stop it, and tells its users before doing so where it can.

## Questions
${reach(facts)}
`
}

export function defaultPrivacy(facts: InstanceFacts): string {
  const model = facts.llmHost
    ? `This instance is set up to use a language model at **${facts.llmHost}**: when Quire drafts an answer or answers a chat question with it, the question and the passages of your documents it cites are sent there. Nothing else is.`
    : 'This instance uses no language model: answers are drafted on this server, and no question or passage is sent elsewhere.'
  return `This instance of Quire, at ${facts.address}, is run by **${facts.operator}**, who is responsible for the data kept here. This policy applies until its operator publishes their own.

## What is kept
- Your account: your name, email address, a hash of your password (never the password itself), and your organisation and role.
- Your organisation's work: the documents, answers, questionnaires and comments its people add, and a log of the changes its people make, with who made them and when.
- Sign-in records: when you signed in, kept to protect your account.

## Where it is kept
On this instance's own server and its PostgreSQL database. There are no analytics or advertising trackers. The cookies Quire sets keep you signed in and remember whether the sidebar is open.

## What leaves this server
- Email: the messages Quire sends you (confirmations, invitations, notifications you chose) go through the operator's mail service.
- ${model}

## Your choices
You choose which notifications reach you by email in Settings, and every notification email has a one-click unsubscribe. Your organisation's administrators can remove your account; to have your data deleted or to see what is kept about you, ${facts.contact ? `write to [${facts.contact}](mailto:${facts.contact})` : `ask ${facts.operator}`}.
`
}
