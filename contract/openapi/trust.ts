import * as z from 'zod/mini'
import { paths } from '../paths.ts'
import {
  fileTrustSchema,
  publicTrustPageSchema,
  QA_TRUST_VISIBILITIES,
  qaTrustSchema,
  TRUST_VISIBILITIES,
  trustAnalyticsQuerySchema,
  trustAnalyticsSchema,
  trustAnswerSchema,
  trustAskSchema,
  trustGrantSchema,
  trustItemsSchema,
  trustReaderSchema,
  trustRequestCreateSchema,
  trustRequestListSchema,
  trustRequestSchema,
  trustSessionRequestSchema,
  trustSessionSchema,
  trustSettingsSchema,
  trustSettingsUpdateSchema,
} from '../trust.ts'
import { type OperationDocs, op } from './operation.ts'

const T = paths.trust
const P = paths.publicTrust
const SLUG = '{slug}'

const decision = (summary: string) => ({
  summary,
  access: 'organization.manage' as const,
  body: trustGrantSchema,
  response: trustRequestSchema,
})

/** The trust centre: kept by the organisation's admins, read by anyone (issue 40). */
export const trustOperations: OperationDocs = {
  [op('GET', T.settings)]: {
    summary: 'The trust centre page’s settings',
    access: 'organization.manage',
    response: trustSettingsSchema,
  },
  [op('POST', T.settings)]: {
    summary: 'Change the trust centre page: any of the fields, the others stay',
    access: 'organization.manage',
    body: trustSettingsUpdateSchema,
    response: trustSettingsSchema,
  },
  [op('POST', T.file('{id}'))]: {
    summary: 'Whether a repository file is on the trust centre: not, for anyone, or under NDA',
    access: 'library.manage',
    body: fileTrustSchema,
    response: z.object({ id: z.int(), visibility: z.enum(TRUST_VISIBILITIES) }),
  },
  [op('POST', T.qa('{id}'))]: {
    summary: 'Whether an approved Q&A item is published on the trust centre',
    access: 'library.manage',
    body: qaTrustSchema,
    response: z.object({ id: z.int(), visibility: z.enum(QA_TRUST_VISIBILITIES) }),
  },
  [op('GET', T.items)]: {
    summary: 'The repository’s files and the approved Q&A items, each with its visibility',
    access: 'library.manage',
    response: trustItemsSchema,
  },
  [op('GET', T.analytics)]: {
    summary: 'The page’s views, requests, approvals and downloads over the last days',
    access: 'organization.manage',
    query: trustAnalyticsQuerySchema,
    response: trustAnalyticsSchema,
  },
  [op('GET', T.requests)]: {
    summary: 'The requests to read the documents under NDA',
    access: 'organization.manage',
    response: trustRequestListSchema,
  },
  [op('POST', T.request('{id}', 'approve'))]: decision(
    'Approve a request: the person is mailed a link to read the documents',
  ),
  [op('POST', T.request('{id}', 'reject'))]: decision('Turn down a request'),
  [op('POST', T.request('{id}', 'revoke'))]: decision('End a reader’s access at once'),
  [op('POST', T.request('{id}', 'extend'))]: decision('Extend a reader’s access from today'),
  [op('GET', P.page(SLUG))]: {
    summary: 'A published trust centre page, public items only',
    access: 'public',
    response: publicTrustPageSchema,
  },
  [op('GET', P.reader(SLUG))]: {
    summary: 'The reader session this browser holds for the page, if any',
    access: 'public',
    response: trustReaderSchema,
  },
  [op('GET', P.logo(SLUG))]: {
    summary: 'The organisation’s logo, on a published page only',
    access: 'public',
    produces: 'file',
  },
  [op('POST', P.requests(SLUG))]: {
    summary: 'Ask to read the documents under NDA, accepting the NDA',
    description:
      'Approved at once for addresses at the domains the organisation chose; else pending until an admin decides.',
    access: 'public',
    body: trustRequestCreateSchema,
    response: z.object({ status: z.enum(['approved', 'pending']) }),
    status: 201,
  },
  [op('POST', P.ask(SLUG))]: {
    summary: 'Ask a question, answered from the page’s published material only',
    access: 'public',
    body: trustAskSchema,
    response: trustAnswerSchema,
  },
  [op('POST', P.session(SLUG))]: {
    summary: 'Exchange the mailed one-time token for a reader session (also set as a cookie)',
    access: 'public',
    body: trustSessionRequestSchema,
    response: trustSessionSchema,
  },
  [op('GET', P.download(SLUG, '{id}'))]: {
    summary: 'Download a document on the page; one under NDA needs a reader session',
    description: 'A PDF under NDA is stamped on every page with its reader and the day.',
    access: 'public',
    produces: 'file',
  },
}
