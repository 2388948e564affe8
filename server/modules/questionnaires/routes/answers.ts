import type { Context } from 'hono'
import { z } from 'zod'
import { paths } from '../../../../contract/paths.ts'
import {
  answerEditSchema,
  approveSchema,
  QUESTIONNAIRE_TEXTS,
} from '../../../../contract/questionnaires.ts'
import { can } from '../../../../contract/roles.ts'
import type { AuthEnv } from '../../../auth/middleware.ts'
import { forbidden, type Permit } from '../../../auth/permissions.ts'
import { type AreaRouter, idParams, orgOf, routePath, userOf } from '../../../http/route-kit.ts'
import { jsonBody, params } from '../../../http/validate.ts'
import type { QuestionnaireService } from '../service.ts'
import { ownerOf } from './records.ts'

const selectParams = z.object({
  qid: z.coerce.number().int().positive(),
  aid: z.coerce.number().int().positive(),
})

/** A questionnaire's answers and questions: edited, approved, chosen among, deleted. */
export function answerRoutes(
  app: AreaRouter,
  options: { permit: Permit; service: QuestionnaireService },
) {
  const { service, permit } = options
  /** An approved answer is changed only by those who may approve (it loses its approval). */
  const guardApproved = async (c: Context<AuthEnv>, approved: boolean) => {
    if (approved && !can(c.get('auth').role, 'answers.approve'))
      throw forbidden(QUESTIONNAIRE_TEXTS.approvedLocked)
  }

  const edit = async (c: Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, answerEditSchema)
    await guardApproved(c, await service.answerApproved(orgOf(c), id))
    return c.json(await service.edit(orgOf(c), userOf(c), id, body))
  }
  app.post(
    routePath(paths.questionnaires.answer.edit('{id}')),
    permit('questionnaires.write'),
    edit,
  )
  app.patch(
    routePath(paths.questionnaires.answer.edit('{id}')),
    permit('questionnaires.write'),
    edit,
  )
  app.put(routePath(paths.questionnaires.answer.edit('{id}')), permit('questionnaires.write'), edit)
  app.post(
    routePath(paths.questionnaires.answer.approve('{id}')),
    permit('answers.approve'),
    async (c) => {
      const { id } = params(c, idParams)
      // the body is optional: {confirm_incomplete: true} approves an answer that lacks a part
      const body = (await c.req.text()).trim()
        ? await jsonBody(c, approveSchema)
        : { confirm_incomplete: false }
      return c.json(await service.approve(orgOf(c), userOf(c), id, body))
    },
  )
  app.post(
    routePath(paths.questionnaires.answer.unApprove('{id}')),
    permit('answers.approve'),
    async (c) => {
      const { id } = params(c, idParams)
      return c.json(await service.unApprove(orgOf(c), userOf(c), id))
    },
  )
  app.post(
    routePath(paths.questionnaires.selectAnswer('{qid}', '{aid}')),
    permit('questionnaires.write'),
    async (c) => {
      const { qid, aid } = params(c, selectParams)
      await guardApproved(c, await service.questionApproved(orgOf(c), qid))
      return c.json(await service.select(orgOf(c), userOf(c), qid, aid))
    },
  )
  const deleteQuestion = async (c: Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    return c.json(await service.deleteQuestion(orgOf(c), userOf(c), id, ownerOf(c)))
  }
  app.post(
    routePath(paths.questionnaires.deleteQuestion('{id}')),
    permit('questionnaires.write'),
    deleteQuestion,
  )
  app.delete(
    routePath(paths.questionnaires.deleteQuestion('{id}')),
    permit('questionnaires.write'),
    deleteQuestion,
  )
}
