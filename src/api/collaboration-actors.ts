import { fromPromise } from 'xstate'
import {
  type AssignRequest,
  assignResponseSchema,
  type Person,
  peopleSchema,
  type ReviewActionRequest,
} from '../../contract/collaboration.ts'
import { paths } from '../../contract/paths.ts'
import { type AnswerChange, answerChangeSchema } from '../../contract/questionnaires.ts'
import { type ApiClient, api } from './client.ts'

/** The people of the organisation, assigning questions and their review steps (issue 29). */
export function assignmentActors(client: ApiClient = api) {
  return {
    loadPeople: fromPromise<Person[], void>(async () => {
      const body = await client.get(paths.questionnaires.people, peopleSchema)
      return body.results
    }),
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
