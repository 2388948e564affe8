import * as z from 'zod/mini'
import { paths } from '../paths.ts'
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeySchema,
  questionAnswerSchema,
  questionAskSchema,
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
  [op('GET', '/openapi.json')]: {
    summary: 'This document',
    access: 'public',
    response: z.looseObject({ openapi: z.string() }),
  },
}
