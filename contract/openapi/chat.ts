import * as z from 'zod/mini'
import {
  chatCreateSchema,
  chatExportQuerySchema,
  chatFollowUpQuerySchema,
  chatHistorySchema,
  chatListQuerySchema,
  chatQuotaSchema,
  chatRenameSchema,
  chatReplySchema,
  chatSendSchema,
  chatSessionListSchema,
  chatSessionSchema,
} from '../chat.ts'
import { deleteResponseSchema } from '../knowledge.ts'
import { paths } from '../paths.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const C = paths.chat

const removeSession: OperationDoc = {
  summary: 'Delete one of my conversations',
  access: 'read',
  response: deleteResponseSchema,
}
const history: OperationDoc = {
  summary: 'One of my conversations with its messages',
  access: 'read',
  response: chatHistorySchema,
}

/** The chat assistant over the organisation's knowledge; each person's conversations are theirs. */
export const chatOperations: OperationDocs = {
  [op('GET', C.sessions)]: {
    summary: 'My conversations, newest first, searched by title',
    access: 'read',
    query: chatListQuerySchema,
    response: chatSessionListSchema,
  },
  [op('POST', C.create)]: {
    summary: 'Start a conversation',
    access: 'read',
    body: chatCreateSchema,
    response: chatSessionSchema,
    status: 201,
  },
  [op('POST', C.createUnnamed)]: {
    summary: 'Start a conversation without a title',
    access: 'read',
    response: chatSessionSchema,
    status: 201,
  },
  [op('GET', C.session('{id}'))]: history,
  [op('GET', C.messages('{id}'))]: history,
  [op('POST', C.update('{id}'))]: {
    summary: 'Rename one of my conversations',
    access: 'read',
    body: chatRenameSchema,
    response: chatSessionSchema,
  },
  [op('POST', C.delete('{id}'))]: removeSession,
  [op('DELETE', C.delete('{id}'))]: removeSession,
  [op('GET', C.export('{id}'))]: {
    summary: 'Download a conversation as Markdown or PDF',
    access: 'read',
    query: chatExportQuerySchema,
    produces: 'file',
  },
  [op('GET', C.dynamicQuestions)]: {
    summary: 'Questions to ask next, from the library and the conversation so far',
    access: 'read',
    query: chatFollowUpQuerySchema,
    response: z.object({ questions: z.array(z.string()) }),
  },
  [op('GET', C.quota)]: {
    summary: 'The organisation’s chat questions this month against its allowance',
    access: 'read',
    response: chatQuotaSchema,
  },
  [op('POST', C.messages('{id}'))]: {
    summary: 'Ask a question: the answer is worked out from the evidence, with its citations',
    description:
      'One JSON answer; with `Accept: text/event-stream`, the answer streams as server-sent events instead (`start`, `token`…, `citations`, `done`).',
    access: 'read',
    body: chatSendSchema,
    response: chatReplySchema,
  },
}
