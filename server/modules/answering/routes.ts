import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
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
import { requireAuth } from '../../auth/middleware.ts'
import { forbidden, type Permit } from '../../auth/permissions.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { AnsweringService } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) => decodeURIComponent(path).replace('{id}', ':id{[0-9]+}')

/** Generation and the review operations of spec section 7 (answers/{id}/..., {id}/sections/...). */
export function answeringRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: AnsweringService
  /** Whether an answer is approved: regenerating it then takes an approver. */
  answerApproved: (orgId: number, answerId: number) => Promise<boolean>
}) {
  const { service, permit } = options
  const app = new Hono<AuthEnv>()
  app.use('/filler/questionnaires/*', requireAuth(options.auth))
  const org = (c: Context<AuthEnv>) => c.get('auth').org.id
  const user = (c: Context<AuthEnv>) => c.get('auth').user.id
  const Q = paths.questionnaires

  app.post(at(Q.generate('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    // the body is optional: {include_existing: true} drafts the answers the file arrived with too
    const body = (await c.req.text()).trim()
      ? await jsonBody(c, generateRequestSchema)
      : { include_existing: false }
    return c.json(await service.start(org(c), user(c), id, body), 202)
  })
  app.get(at(Q.previous('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ results: await service.previous(org(c), id) })
  })
  app.post(at(Q.carryForward('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, carryForwardSchema)
    const canApprove = can(c.get('auth').role, 'answers.approve')
    return c.json(
      await service.carryForward(
        org(c),
        { id: user(c), canApprove },
        id,
        body.from_questionnaire_id,
      ),
    )
  })
  app.post(at(Q.cancelGeneration('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.cancel(org(c), id))
  })
  const guardApproved = async (c: Context<AuthEnv>, id: number) => {
    if (!can(c.get('auth').role, 'answers.approve') && (await options.answerApproved(org(c), id)))
      throw forbidden(QUESTIONNAIRE_TEXTS.approvedLocked)
  }

  app.post(at(Q.answer.confirmSource('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    await guardApproved(c, id)
    return c.json(await service.confirmSourceOf(org(c), id))
  })
  app.post(at(Q.answer.regenerate('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    await guardApproved(c, id)
    return c.json(await service.regenerate(org(c), user(c), id))
  })
  app.post(
    at(Q.answer.regenerateWithEvidence('{id}')),
    permit('questionnaires.write'),
    async (c) => {
      const { id } = params(c, idParams)
      const body = await jsonBody(c, regenerateWithEvidenceSchema)
      await guardApproved(c, id)
      return c.json(
        await service.regenerate(org(c), user(c), id, {
          text: body.evidence,
          fileIds: body.file_ids,
        }),
      )
    },
  )
  app.post(at(Q.answer.applyConsistency('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.applyConsistency(org(c), user(c), id))
  })
  app.post(at(Q.answer.saveToLibrary('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.saveToLibrary(org(c), user(c), id))
  })
  app.use(paths.knowledgeBase.health, requireAuth(options.auth))
  app.get(paths.knowledgeBase.health, permit('read'), async (c) =>
    c.json(await service.libraryHealth(org(c))),
  )
  for (const kind of SECTION_OPERATIONS) {
    app.post(at(Q.sections[kind]('{id}')), permit('questionnaires.write'), async (c) => {
      const { id } = params(c, idParams)
      const body = await jsonBody(c, sectionRequestSchema)
      return c.json(await service.section(org(c), user(c), id, kind, body))
    })
  }
  return app
}
