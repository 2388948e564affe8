import { fromCallback, fromPromise } from 'xstate'
import { safeParse } from 'zod/mini'
import { changeEventSchema, presenceEventSchema } from '../../contract/collaboration.ts'
import { paths } from '../../contract/paths.ts'
import {
  type AnswerChange,
  answersResponseSchema,
  questionnaireSchema,
} from '../../contract/questionnaires.ts'
import type { FetchRowsInput, LiveStreamEvent } from '../../machines/questionnaire-live/index.ts'
import { type ApiClient, api } from './client.ts'
import { followStream } from './event-stream.ts'

/** The live stream of an open questionnaire and the rows it names, read again (issue 29). */
export function liveActors(client: ApiClient = api) {
  return {
    stream: fromCallback<LiveStreamEvent, { id: number }>(({ input, sendBack }) =>
      followStream(client, paths.questionnaires.events(input.id), sendBack, (type, data) => {
        if (type === 'presence') {
          const parsed = safeParse(presenceEventSchema, data)
          if (parsed.success) sendBack({ type: 'stream.presence', viewers: parsed.data.viewers })
        } else if (type === 'change') {
          const parsed = safeParse(changeEventSchema, data)
          if (parsed.success) sendBack({ type: 'stream.change', change: parsed.data })
        }
      }),
    ),
    fetchRows: fromPromise<AnswerChange, FetchRowsInput>(async ({ input }) => {
      if (input.questionIds?.length === 0) {
        const questionnaire = await client.get(
          paths.questionnaires.get(input.id),
          questionnaireSchema,
        )
        return { questionnaire, questions: [], operation: null }
      }
      const ids = input.questionIds ? `?ids=${input.questionIds.slice(0, 500).join(',')}` : ''
      const body = await client.get(
        `${paths.questionnaires.answers(input.id)}${ids}`,
        answersResponseSchema,
      )
      return { questionnaire: body.questionnaire, questions: body.questions, operation: null }
    }),
  }
}
