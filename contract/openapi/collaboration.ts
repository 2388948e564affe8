import {
  activityListSchema,
  activityQuerySchema,
  assignResponseSchema,
  assignSchema,
  commentCreateSchema,
  commentEditSchema,
  commentListSchema,
  commentSchema,
  myAssignmentsQuerySchema,
  myAssignmentsSchema,
  peopleSchema,
  reviewActionSchema,
  teamOverviewSchema,
  workUpdateSchema,
} from '../collaboration.ts'
import { paths } from '../paths.ts'
import { answerChangeSchema, questionnaireSchema } from '../questionnaires.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const Q = paths.questionnaires

const work: OperationDoc = {
  summary: 'Change the work around a questionnaire: owner, customer, requester, due date, status',
  access: 'questionnaires.write',
  body: workUpdateSchema,
  response: questionnaireSchema,
}
const editComment: OperationDoc = {
  summary: 'Edit one’s own comment',
  access: 'questionnaires.write',
  body: commentEditSchema,
  response: commentSchema,
}

/** Working together: the work, assignments, review steps, comments, activity and live updates. */
export const collaborationOperations: OperationDocs = {
  [op('POST', Q.work('{id}'))]: work,
  [op('PATCH', Q.work('{id}'))]: work,
  [op('GET', Q.team)]: {
    summary:
      'Home: the questionnaires in progress, the answers awaiting review and recent activity',
    access: 'read',
    response: teamOverviewSchema,
  },
  [op('GET', Q.people)]: {
    summary: 'The organisation’s active people, to assign, make owners and mention',
    access: 'read',
    response: peopleSchema,
  },
  [op('POST', Q.assign('{id}'))]: {
    summary: 'Assign questions to a person, or unassign them',
    description:
      'The questions named, a tab’s, those matching a filter, or all of them; approved answers are left out of a tab, a filter or all unless `include_approved`.',
    access: 'questionnaires.write',
    body: assignSchema,
    response: assignResponseSchema,
  },
  [op('GET', paths.me.assignments)]: {
    summary: 'Everything assigned to me that is still to do, soonest first',
    access: 'read',
    query: myAssignmentsQuerySchema,
    response: myAssignmentsSchema,
  },
  [op('POST', Q.review('{id}'))]: {
    summary: 'Take a question a review step: ready for review, approved, or changes requested',
    access: 'questionnaires.write',
    body: reviewActionSchema,
    response: answerChangeSchema,
  },
  [op('GET', Q.activity('{id}'))]: {
    summary: 'What happened to a questionnaire, newest first',
    access: 'read',
    query: activityQuerySchema,
    response: activityListSchema,
  },
  [op('GET', Q.events('{id}'))]: {
    summary: 'A questionnaire’s live stream: who else has it open, and what changed',
    access: 'read',
    produces: 'event-stream',
  },
  [op('GET', Q.comments('{id}'))]: {
    summary: 'The comments on a question, thread by thread',
    access: 'read',
    response: commentListSchema,
  },
  [op('POST', Q.comments('{id}'))]: {
    summary: 'Comment on a question, or reply to a thread; the people mentioned are told',
    access: 'questionnaires.write',
    body: commentCreateSchema,
    response: commentSchema,
    status: 201,
  },
  [op('PATCH', Q.comment('{id}'))]: editComment,
  [op('POST', Q.comment('{id}'))]: editComment,
  [op('DELETE', Q.comment('{id}'))]: {
    summary: 'Delete one’s own comment (an admin may delete any)',
    access: 'questionnaires.write',
    response: commentSchema,
  },
  [op('POST', Q.resolveComment('{id}'))]: {
    summary: 'Resolve a comment thread',
    access: 'questionnaires.write',
    response: commentSchema,
  },
  [op('POST', Q.reopenComment('{id}'))]: {
    summary: 'Reopen a resolved comment thread',
    access: 'questionnaires.write',
    response: commentSchema,
  },
}
