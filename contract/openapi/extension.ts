import {
  extensionConfigSchema,
  extensionHandoffRequestSchema,
  extensionHandoffResponseSchema,
} from '../extension.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

const E = paths.extension

/** The browser extension's hand-off. */
export const extensionOperations: OperationDocs = {
  [op('GET', E.config)]: {
    summary: 'The browser extensions allowed to receive a session',
    access: 'public',
    response: extensionConfigSchema,
  },
  [op('POST', E.handoff)]: {
    summary: 'A session of the extension’s own, handed back to an allowed extension only',
    description: 'The session is a child of the person’s: it ends when theirs does.',
    access: 'read',
    body: extensionHandoffRequestSchema,
    response: extensionHandoffResponseSchema,
  },
}
