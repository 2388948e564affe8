import {
  answeredRowListSchema,
  dataItemCreateSchema,
  dataItemListSchema,
  dataItemSchema,
  dataItemUpdateSchema,
  deleteResponseSchema,
  fileListQuerySchema,
  importPreviewSchema,
  importResultSchema,
  itemListQuerySchema,
  qaItemCreateSchema,
  qaItemListSchema,
  qaItemSchema,
  qaItemUpdateSchema,
  repositoryFileListSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../knowledge.ts'
import { paths } from '../paths.ts'
import { libraryHealthSchema } from '../questionnaires.ts'
import { type OperationDocs, op } from './operation.ts'

const K = paths.knowledgeBase

/** The knowledge base: the library's Q&A items, data items, and search over all of it. */
export const knowledgeOperations: OperationDocs = {
  [op('GET', K.qa)]: {
    summary: 'List the library’s Q&A items, searched and filtered, a page at a time',
    access: 'read',
    query: itemListQuerySchema,
    response: qaItemListSchema,
  },
  [op('POST', K.qa)]: {
    summary: 'Add a Q&A item to the library',
    access: 'library.manage',
    body: qaItemCreateSchema,
    response: qaItemSchema,
    status: 201,
  },
  [op('GET', K.qaItem('{id}'))]: {
    summary: 'One Q&A item',
    access: 'read',
    response: qaItemSchema,
  },
  [op('PATCH', K.qaItem('{id}'))]: {
    summary: 'Edit a Q&A item: the fields given change, the others stay',
    access: 'library.manage',
    body: qaItemUpdateSchema,
    response: qaItemSchema,
  },
  [op('POST', K.qaReviewed('{id}'))]: {
    summary: 'Confirm a Q&A item is still true: it is reviewed today',
    description: 'Its owner, or someone who manages the library.',
    access: 'read',
    response: qaItemSchema,
  },
  [op('DELETE', K.deleteQa('{id}'))]: {
    summary: 'Delete a Q&A item',
    access: 'library.manage',
    response: deleteResponseSchema,
  },
  [op('GET', K.answered)]: {
    summary: 'The rows of completed questionnaires in the repository, as the library reads them',
    access: 'read',
    query: itemListQuerySchema,
    response: answeredRowListSchema,
  },
  [op('GET', K.health)]: {
    summary: 'Q&A items that ask the same question and repeat or contradict each other',
    description:
      'With the library’s workload: items stale or due for review, and answers whose cited source changed.',
    access: 'read',
    response: libraryHealthSchema,
  },
  [op('GET', K.data)]: {
    summary: 'List the library’s data items, searched and filtered, a page at a time',
    access: 'read',
    query: itemListQuerySchema,
    response: dataItemListSchema,
  },
  [op('POST', K.data)]: {
    summary: 'Add a data item (a fact such as the company’s legal name) to the library',
    access: 'library.manage',
    body: dataItemCreateSchema,
    response: dataItemSchema,
    status: 201,
  },
  [op('GET', K.dataItem('{id}'))]: {
    summary: 'One data item',
    access: 'read',
    response: dataItemSchema,
  },
  [op('PATCH', K.dataItem('{id}'))]: {
    summary: 'Edit a data item: the fields given change, the others stay',
    access: 'library.manage',
    body: dataItemUpdateSchema,
    response: dataItemSchema,
  },
  [op('DELETE', K.deleteData('{id}'))]: {
    summary: 'Delete a data item',
    access: 'library.manage',
    response: deleteResponseSchema,
  },
  [op('GET', K.files)]: {
    summary: 'The repository’s files that are ready, as the knowledge base lists them',
    access: 'read',
    query: fileListQuerySchema,
    response: repositoryFileListSchema,
  },
  [op('GET', K.search)]: {
    summary: 'Search the documents, Q&A items and data items, best first',
    access: 'read',
    query: searchQuerySchema,
    response: searchResponseSchema,
  },
  [op('POST', K.importPreview)]: {
    summary: 'Read a CSV or Excel file of questions and answers, and suggest its columns',
    description: 'One file in the field `file`; nothing is stored.',
    access: 'library.manage',
    multipart: { fields: [] },
    response: importPreviewSchema,
  },
  [op('POST', K.import)]: {
    summary: 'Import questions and answers from a CSV or Excel file into the library',
    description:
      'The same file in `file`, and the confirmed columns as JSON in `mapping`. An item asking the same question is updated rather than repeated.',
    access: 'library.manage',
    multipart: { fields: ['mapping'] },
    response: importResultSchema,
  },
}
