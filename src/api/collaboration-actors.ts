import { fromPromise } from 'xstate'
import {
  type Activity,
  type AssignRequest,
  activityListSchema,
  assignResponseSchema,
  type Comment,
  commentListSchema,
  commentSchema,
  type Person,
  peopleSchema,
  type ReviewActionRequest,
  type TeamOverview,
  teamOverviewSchema,
} from '../../contract/collaboration.ts'
import { paths } from '../../contract/paths.ts'
import { type AnswerChange, answerChangeSchema } from '../../contract/questionnaires.ts'
import type { CommentAction } from '../../machines/comment-thread/index.ts'
import { type ApiClient, api } from './client.ts'

/** The organisation's active people: assignees, owners, the people a comment mentions. */
const readPeople = async (client: ApiClient) =>
  (await client.get(paths.questionnaires.people, peopleSchema)).results

/** The people of the organisation, assigning questions and their review steps (issue 29). */
export function assignmentActors(client: ApiClient = api) {
  return {
    loadPeople: fromPromise<Person[], void>(() => readPeople(client)),
    assign: fromPromise<number, { questionnaireId: number; request: AssignRequest }>(
      async ({ input }) => {
        const body = await client.post(
          paths.questionnaires.assign(input.questionnaireId),
          input.request,
          assignResponseSchema,
        )
        return body.assigned
      },
    ),
  }
}

export function questionReviewActors(client: ApiClient = api) {
  return {
    review: fromPromise<AnswerChange, { questionId: number; request: ReviewActionRequest }>(
      async ({ input }) =>
        client.post(
          paths.questionnaires.review(input.questionId),
          input.request,
          answerChangeSchema,
        ),
    ),
  }
}

/**
 * A question's comments (issue 29). The people offered after an "@" are read once for all the
 * questions opened on the page (again after a failure).
 */
export function commentActors(client: ApiClient = api) {
  const Q = paths.questionnaires
  let people: Promise<Person[]> | null = null
  const peopleOnce = () => {
    people ??= readPeople(client).catch((error: unknown) => {
      people = null
      throw error
    })
    return people
  }
  return {
    loadComments: fromPromise<Comment[], { questionId: number }>(
      async ({ input }) =>
        (await client.get(Q.comments(input.questionId), commentListSchema)).results,
    ),
    loadPeople: fromPromise<Person[], void>(peopleOnce),
    act: fromPromise<Comment, CommentAction>(async ({ input }) => {
      switch (input.kind) {
        case 'create':
          return client.post(Q.comments(input.questionId), input.request, commentSchema)
        case 'edit':
          return client.post(Q.comment(input.id), input.request, commentSchema)
        case 'delete':
          return client.delete(Q.comment(input.id), commentSchema)
        case 'resolve':
          return client.post(Q.resolveComment(input.id), {}, commentSchema)
        case 'reopen':
          return client.post(Q.reopenComment(input.id), {}, commentSchema)
      }
    }),
  }
}

export function activityActors(client: ApiClient = api) {
  return {
    loadActivity: fromPromise<Activity[], { id: number }>(async ({ input }) => {
      const body = await client.get(
        `${paths.questionnaires.activity(input.id)}?limit=100`,
        activityListSchema,
      )
      return body.results
    }),
  }
}

export function teamActors(client: ApiClient = api) {
  return {
    loadTeam: fromPromise<TeamOverview, void>(async () =>
      client.get(paths.questionnaires.team, teamOverviewSchema),
    ),
  }
}
