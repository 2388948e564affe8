import * as z from 'zod/mini'
import { paths } from '../paths.ts'
import {
  answerChangeSchema,
  answerEditSchema,
  approveSchema,
  carryForwardResponseSchema,
  carryForwardSchema,
  consistencyResultSchema,
  generateRequestSchema,
  previousListSchema,
  questionnaireSchema,
  regenerateWithEvidenceSchema,
  saveToLibraryResponseSchema,
  sectionPreviewSchema,
  sectionRequestSchema,
} from '../questionnaires.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const Q = paths.questionnaires
const A = Q.answer

const editAnswer: OperationDoc = {
  summary: 'Edit an answer’s text, value or comment',
  description:
    'Name the answer’s `version` the edit was made against: a stale one is refused with 409 and the answer as it now is. An approved answer is changed only by those who may approve.',
  access: 'questionnaires.write',
  body: answerEditSchema,
  response: answerChangeSchema,
}
const deleteQuestion: OperationDoc = {
  summary: 'Delete a question from a questionnaire',
  access: 'questionnaires.write',
  response: answerChangeSchema,
}
const section = (what: string): OperationDoc => ({
  summary: `${what}, over a tab or the questions named`,
  description:
    'With `preview: true` nothing is written: the answer says what would change. Otherwise the changed rows, and the Yes/No contradictions found.',
  access: 'questionnaires.write',
  body: sectionRequestSchema,
  response: z.union([consistencyResultSchema, sectionPreviewSchema]),
})

/** Answering a questionnaire: generation, the review of each answer, and section operations. */
export const answerOperations: OperationDocs = {
  [op('POST', Q.generate('{id}'))]: {
    summary: 'Start drafting answers for the questions still waiting',
    description:
      'The body is optional: `include_existing` drafts the answers the file arrived with too. Answers 202 with the questionnaire, then generating.',
    access: 'questionnaires.write',
    body: generateRequestSchema,
    response: questionnaireSchema,
    status: 202,
  },
  [op('POST', Q.cancelGeneration('{id}'))]: {
    summary: 'Stop drafting answers; those drafted so far stay',
    access: 'questionnaires.write',
    response: questionnaireSchema,
  },
  [op('GET', Q.previous('{id}'))]: {
    summary: 'Earlier questionnaires this one matches, best first',
    access: 'read',
    response: previousListSchema,
  },
  [op('POST', Q.carryForward('{id}'))]: {
    summary:
      'Start from an earlier questionnaire: its approved answers carry to the same questions',
    access: 'questionnaires.write',
    body: carryForwardSchema,
    response: carryForwardResponseSchema,
  },
  [op('POST', Q.undo('{id}'))]: {
    summary: 'Undo the latest change to a questionnaire’s answers',
    access: 'questionnaires.write',
    response: answerChangeSchema,
  },
  [op('POST', A.edit('{id}'))]: editAnswer,
  [op('PATCH', A.edit('{id}'))]: editAnswer,
  [op('PUT', A.edit('{id}'))]: editAnswer,
  [op('POST', A.approve('{id}'))]: {
    summary: 'Approve an answer',
    description:
      'The body is optional: `confirm_incomplete` approves an answer that lacks a part its cells take.',
    access: 'answers.approve',
    body: approveSchema,
    response: answerChangeSchema,
  },
  [op('POST', A.unApprove('{id}'))]: {
    summary: 'Withdraw an answer’s approval',
    access: 'answers.approve',
    response: answerChangeSchema,
  },
  [op('POST', A.regenerate('{id}'))]: {
    summary: 'Draft an answer again from the current evidence',
    access: 'questionnaires.write',
    response: answerChangeSchema,
  },
  [op('POST', A.regenerateWithEvidence('{id}'))]: {
    summary: 'Draft an answer again from evidence text or files the reviewer adds',
    access: 'questionnaires.write',
    body: regenerateWithEvidenceSchema,
    response: answerChangeSchema,
  },
  [op('POST', A.applyConsistency('{id}'))]: {
    summary: 'Give the questions that ask the same thing this answer',
    access: 'questionnaires.write',
    response: consistencyResultSchema,
  },
  [op('POST', A.saveToLibrary('{id}'))]: {
    summary: 'Save an answer to the library, or update the library’s item for the same question',
    access: 'library.manage',
    response: saveToLibraryResponseSchema,
  },
  [op('POST', A.confirmSource('{id}'))]: {
    summary: 'Confirm an answer stands although a source it quotes has changed',
    access: 'questionnaires.write',
    response: answerChangeSchema,
  },
  [op('POST', Q.selectAnswer('{qid}', '{aid}'))]: {
    summary: 'Choose one of a question’s candidate answers',
    access: 'questionnaires.write',
    response: answerChangeSchema,
  },
  [op('POST', Q.deleteQuestion('{id}'))]: deleteQuestion,
  [op('DELETE', Q.deleteQuestion('{id}'))]: deleteQuestion,
  [op('POST', Q.sections.consistency('{id}'))]: section(
    'Give questions that ask the same thing the same answer',
  ),
  [op('POST', Q.sections.shorten('{id}'))]: section('Shorten the answers'),
  [op('POST', Q.sections.examples('{id}'))]: section(
    'Add examples from the evidence to the answers',
  ),
  [op('POST', Q.sections.custom('{id}'))]: section(
    'Apply the reviewer’s own instruction to the answers (a language model is needed)',
  ),
}
