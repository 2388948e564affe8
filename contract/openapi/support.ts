import { paths } from '../paths.ts'
import { ticketRequestSchema, ticketResponseSchema } from '../support.ts'
import { type OperationDocs, op } from './operation.ts'

/** Support tickets from inside the app. */
export const supportOperations: OperationDocs = {
  [op('POST', paths.support.createTask)]: {
    summary: 'Send a support ticket (a bug, a request, feedback, a question or an idea)',
    description:
      'Attachments are sent as base64 in the JSON body, at most 5 files and 20 MB in all. At most 10 tickets a person an hour (429 with Retry-After past it).',
    access: 'read',
    body: ticketRequestSchema,
    response: ticketResponseSchema,
    status: 201,
  },
}
