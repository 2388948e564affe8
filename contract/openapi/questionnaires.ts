import { batchDeleteResponseSchema, deleteResponseSchema } from '../knowledge.ts'
import { paths } from '../paths.ts'
import {
  answersByTabSchema,
  answersQuerySchema,
  answersResponseSchema,
  batchDeleteQuestionnairesSchema,
  checkFilledFileSchema,
  exportBasicRequestSchema,
  exportOriginalRequestSchema,
  exportRequestSchema,
  exportResponseSchema,
  filledFileQuerySchema,
  operationListSchema,
  questionnaireListQuerySchema,
  questionnaireListSchema,
  questionnaireSchema,
  reanalyzeRequestSchema,
  tabListSchema,
} from '../questionnaires.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const Q = paths.questionnaires

const removeQuestionnaire: OperationDoc = {
  summary: 'Delete a questionnaire with its answers and filled files',
  description: 'Without `questionnaires.delete`, only one’s own questionnaires.',
  access: 'questionnaires.write',
  response: deleteResponseSchema,
}

/** Questionnaires: the customer's file, its tabs and questions, its history and its exports. */
export const questionnaireOperations: OperationDocs = {
  [op('GET', Q.list)]: {
    summary: 'List the questionnaires, searched and filtered, a page at a time',
    access: 'read',
    query: questionnaireListQuerySchema,
    response: questionnaireListSchema,
  },
  [op('POST', Q.upload)]: {
    summary: 'Upload a questionnaire; it is analysed in the background',
    description:
      'One file in the field `file` (Excel, CSV, Word or PDF); optionally `product_id`, and the work around it: `customer_name`, `due_date` (YYYY-MM-DD) and `owner_id`.',
    access: 'questionnaires.write',
    multipart: { fields: ['product_id', 'customer_name', 'due_date', 'owner_id'] },
    response: questionnaireSchema,
    status: 201,
  },
  [op('POST', Q.batchDelete)]: {
    summary: 'Delete several questionnaires at once',
    description: 'Without `questionnaires.delete`, only when every one of them is one’s own.',
    access: 'questionnaires.write',
    body: batchDeleteQuestionnairesSchema,
    response: batchDeleteResponseSchema,
  },
  [op('GET', Q.get('{id}'))]: {
    summary: 'One questionnaire: its status, progress, counts and the work around it',
    access: 'read',
    response: questionnaireSchema,
  },
  [op('GET', Q.answers('{id}'))]: {
    summary: 'A questionnaire’s questions with their answers and candidates',
    access: 'read',
    query: answersQuerySchema,
    response: answersResponseSchema,
  },
  [op('GET', Q.answersByTab('{id}'))]: {
    summary: 'A questionnaire’s questions and answers, tab by tab',
    access: 'read',
    response: answersByTabSchema,
  },
  [op('GET', Q.tabs('{id}'))]: {
    summary: 'A questionnaire’s tabs, with how each is mapped and its first rows',
    access: 'read',
    response: tabListSchema,
  },
  [op('GET', Q.download('{id}'))]: {
    summary: 'Download the questionnaire’s file as it was uploaded',
    access: 'read',
    produces: 'file',
  },
  [op('GET', Q.delete('{id}'))]: removeQuestionnaire,
  [op('POST', Q.delete('{id}'))]: removeQuestionnaire,
  [op('DELETE', Q.delete('{id}'))]: removeQuestionnaire,
  [op('POST', Q.reAnalyze('{id}'))]: {
    summary: 'Analyse a questionnaire again, with the tab mappings confirmed or corrected',
    description: 'The body is optional: without mappings, each tab is read as detected.',
    access: 'questionnaires.write',
    body: reanalyzeRequestSchema,
    response: questionnaireSchema,
  },
  [op('GET', Q.operations('{id}'))]: {
    summary: 'The history of changes to a questionnaire’s answers, newest first',
    access: 'read',
    response: operationListSchema,
  },
  [op('POST', Q.exportOriginal)]: {
    summary: 'Start writing the answers into the customer’s own file',
    description:
      'Answers 202 with the export run at once; ask for the run until its filled file is written.',
    access: 'read',
    body: exportOriginalRequestSchema,
    response: exportResponseSchema,
    status: 202,
  },
  [op('POST', Q.exportBasic)]: {
    summary: 'Start writing the questions and answers to a new Excel or CSV file',
    description:
      'Answers 202 with the export run at once; ask for the run until its filled file is written.',
    access: 'read',
    body: exportBasicRequestSchema,
    response: exportResponseSchema,
    status: 202,
  },
  [op('GET', Q.exportRun('{id}'))]: {
    summary: 'An export run: its progress, and its filled file once written',
    access: 'read',
    response: exportResponseSchema,
  },
  [op('POST', Q.checkFilledFile)]: {
    summary: 'Whether a questionnaire has a filled file, and whether it is still current',
    access: 'read',
    body: exportRequestSchema,
    response: checkFilledFileSchema,
  },
  [op('GET', Q.checkFilledFile)]: {
    summary: 'Whether a questionnaire has a filled file, and whether it is still current',
    access: 'read',
    query: filledFileQuerySchema,
    response: checkFilledFileSchema,
  },
  [op('GET', Q.downloadFilledFile)]: {
    summary: 'Download a questionnaire’s latest filled file',
    access: 'read',
    query: filledFileQuerySchema,
    produces: 'file',
  },
  [op('GET', Q.filledFileDownload('{id}'))]: {
    summary: 'Download one filled file',
    access: 'read',
    produces: 'file',
  },
}
