import * as z from 'zod/mini'
import { paths } from '../paths.ts'
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeySchema,
  questionAnswerSchema,
  questionAskSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from '../platform.ts'
import { type OperationDocs, op } from './operation.ts'

const P = paths.platform

/** The open platform (issue 41): API keys, and this document. */
export const platformOperations: OperationDocs = {
  [op('GET', P.apiKeys)]: {
    summary: 'List the organisation’s API keys (by their first characters)',
    access: 'organization.manage',
    response: apiKeyListSchema,
  },
  [op('POST', P.apiKeys)]: {
    summary: 'Make an API key: the key is in this answer only',
    access: 'organization.manage',
    body: apiKeyCreateSchema,
    response: apiKeyCreatedSchema,
    status: 201,
  },
  [op('POST', P.apiKeyRevoke('{id}'))]: {
    summary: 'Revoke an API key: it fails from the next call',
    access: 'organization.manage',
    response: apiKeySchema,
  },
  [op('POST', P.answer)]: {
    summary:
      'Answer one question from the organisation’s knowledge, with its calibrated confidence and sources',
    access: 'read',
    body: questionAskSchema,
    response: questionAnswerSchema,
  },
  [op('GET', P.webhooks)]: {
    summary: 'List the organisation’s webhook endpoints',
    access: 'organization.manage',
    response: webhookListSchema,
  },
  [op('POST', P.webhooks)]: {
    summary: 'Register a webhook endpoint for events: its signing secret is in this answer only',
    description:
      'Deliveries follow the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h; an endpoint failing for a day is disabled. Kind `slack` or `teams` receives a message of the event instead.',
    access: 'organization.manage',
    body: webhookCreateSchema,
    response: webhookCreatedSchema,
    status: 201,
  },
  [op('POST', P.webhookDelete('{id}'))]: {
    summary: 'Remove a webhook endpoint and its log',
    access: 'organization.manage',
    response: z.object({ status: z.literal('deleted') }),
  },
  [op('POST', P.webhookEnable('{id}'))]: {
    summary: 'Enable a webhook endpoint again (after it was disabled for failing)',
    access: 'organization.manage',
    response: webhookSchema,
  },
  [op('GET', P.webhookDeliveries('{id}'))]: {
    summary: 'The endpoint’s last 100 deliveries, each with every attempt',
    access: 'organization.manage',
    response: webhookDeliveryListSchema,
  },
  [op('POST', P.webhookReplay('{id}', '{delivery}'))]: {
    summary: 'Send a delivery again, with its message id',
    access: 'organization.manage',
    response: z.object({ status: z.literal('queued') }),
  },
  [op('GET', '/openapi.json')]: {
    summary: 'This document',
    access: 'public',
    response: z.looseObject({ openapi: z.string() }),
  },
}
