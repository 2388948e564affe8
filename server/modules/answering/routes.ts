import type { Context } from 'hono'
import { paths } from '../../../contract/paths.ts'
import {
  carryForwardSchema,
  generateRequestSchema,
  QUESTIONNAIRE_TEXTS,
  regenerateWithEvidenceSchema,
  SECTION_OPERATIONS,
  sectionRequestSchema,
} from '../../../contract/questionnaires.ts'
import { can } from '../../../contract/roles.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { forbidden, type Permit } from '../../auth/permissions.ts'
import { areaRouter, idParams, orgOf, routePath, userOf } from '../../http/route-kit.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { AnsweringService } from './service.ts'

/** Generation and the review operations of spec section 7 (answers/{id}/..., {id}/sections/...). */
export function answeringRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: AnsweringService
  /** Whether an answer is approved: regenerating it then takes an approver. */
  answerApproved: (orgId: number, answerId: number) => Promise<boolean>
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })
  const Q = paths.questionnaires

  app.post(routePath(Q.generate('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    // the body is optional: {include_existing: true} drafts the answers the file arrived with too
    const body = (await c.req.text()).trim()
      ? await jsonBody(c, generateRequestSchema)
      : { include_existing: false }
    return c.json(await service.start(orgOf(c), userOf(c), id, body), 202)
  })
  app.get(routePath(Q.previous('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ results: await service.previous(orgOf(c), id) })
  })
  app.post(routePath(Q.carryForward('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, carryForwardSchema)
    const canApprove = can(c.get('auth').role, 'answers.approve')
    return c.json(
      await service.carryForward(
        orgOf(c),
        { id: userOf(c), canApprove },
        id,
        body.from_questionnaire_id,
      ),
    )
  })
  app.post(routePath(Q.cancelGeneration('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.cancel(orgOf(c), id))
  })
  const guardApproved = async (c: Context<AuthEnv>, id: number) => {
    if (!can(c.get('auth').role, 'answers.approve') && (await options.answerApproved(orgOf(c), id)))
      throw forbidden(QUESTIONNAIRE_TEXTS.approvedLocked)
  }

  app.post(routePath(Q.answer.confirmSource('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    await guardApproved(c, id)
    return c.json(await service.confirmSourceOf(orgOf(c), id))
  })
  app.post(routePath(Q.answer.regenerate('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    await guardApproved(c, id)
    return c.json(await service.regenerate(orgOf(c), userOf(c), id))
  })
  app.post(
    routePath(Q.answer.regenerateWithEvidence('{id}')),
    permit('questionnaires.write'),
    async (c) => {
      const { id } = params(c, idParams)
      const body = await jsonBody(c, regenerateWithEvidenceSchema)
      await guardApproved(c, id)
      return c.json(
        await service.regenerate(orgOf(c), userOf(c), id, {
          text: body.evidence,
          fileIds: body.file_ids,
        }),
      )
    },
  )
  app.post(
    routePath(Q.answer.applyConsistency('{id}')),
    permit('questionnaires.write'),
    async (c) => {
      const { id } = params(c, idParams)
      return c.json(await service.applyConsistency(orgOf(c), userOf(c), id))
    },
  )
  app.post(routePath(Q.answer.saveToLibrary('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.saveToLibrary(orgOf(c), userOf(c), id))
  })
  app.get(paths.knowledgeBase.health, permit('read'), async (c) =>
    c.json(await service.libraryHealth(orgOf(c))),
  )
  for (const kind of SECTION_OPERATIONS) {
    app.post(routePath(Q.sections[kind]('{id}')), permit('questionnaires.write'), async (c) => {
      const { id } = params(c, idParams)
      const body = await jsonBody(c, sectionRequestSchema)
      return c.json(await service.section(orgOf(c), userOf(c), id, kind, body))
    })
  }
  return app.app
}
