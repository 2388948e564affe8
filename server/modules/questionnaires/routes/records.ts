import type { Context } from 'hono'
import { safeParse } from 'zod/v4/core'
import { type UploadWork, uploadWorkSchema } from '../../../../contract/collaboration.ts'
import { paths } from '../../../../contract/paths.ts'
import {
  answersQuerySchema,
  batchDeleteQuestionnairesSchema,
  QUESTIONNAIRE_TEXTS,
  type Questionnaire,
  questionnaireListQuerySchema,
  reanalyzeRequestSchema,
} from '../../../../contract/questionnaires.ts'
import { can } from '../../../../contract/roles.ts'
import type { AuthEnv } from '../../../auth/middleware.ts'
import type { Permit } from '../../../auth/permissions.ts'
import { sendDownload as download } from '../../../http/download.ts'
import { apiError, validationError } from '../../../http/errors.ts'
import { parseProductField, readMultipart } from '../../../http/multipart.ts'
import { createResponseCache } from '../../../http/response-cache.ts'
import { type AreaRouter, idParams, orgOf, routePath, userOf } from '../../../http/route-kit.ts'
import { jsonBody, params, query } from '../../../http/validate.ts'
import type { Storage } from '../../../storage/index.ts'
import type { QuestionnaireService } from '../service.ts'

/** The work fields of an upload's form (issue 39), checked; null when none was given. */
function uploadWorkOf(fields: Record<string, string>): UploadWork | null {
  const given = Object.fromEntries(
    (['customer_name', 'due_date', 'owner_id'] as const).flatMap((key) => {
      const value = fields[key]?.trim()
      return value ? [[key, value]] : []
    }),
  )
  if (!Object.keys(given).length) return null
  const result = safeParse(uploadWorkSchema, given)
  if (!result.success) throw validationError(result.error)
  return result.data
}

/** Deleting anyone's questionnaires takes questionnaires.delete; without it, only one's own. */
export const ownerOf = (c: Context<AuthEnv>) => {
  const auth = c.get('auth')
  return can(auth.role, 'questionnaires.delete') ? undefined : auth.user.id
}

/**
 * The questionnaires themselves: listed, uploaded (with the work asked at upload), read, their
 * answers and tabs, the original file, deleted, analysed again, their operations and undo.
 */
export function recordRoutes(
  app: AreaRouter,
  options: {
    permit: Permit
    service: QuestionnaireService
    storage: Storage
    maxUploadBytes: number
    /**
     * The work around a questionnaire (issue 39: customer, due date and owner asked at upload),
     * kept by the collaboration area: `check` refuses a bad value before anything is stored,
     * `apply` records it on the new questionnaire.
     */
    work?: {
      check: (orgId: number, body: UploadWork) => Promise<void>
      apply: (orgId: number, userId: number, id: number, body: UploadWork) => Promise<Questionnaire>
    }
  },
) {
  const { service, permit } = options
  const answersCache = createResponseCache()

  app.get(paths.questionnaires.list, permit('read'), async (c) =>
    c.json(await service.list(orgOf(c), query(c, questionnaireListQuerySchema), userOf(c))),
  )

  app.post(paths.questionnaires.upload, permit('questionnaires.write'), async (c) => {
    const { uploads, fields } = await readMultipart(c, options.storage, {
      maxBytes: options.maxUploadBytes,
      maxFiles: 1,
      fileFields: ['file', 'files'],
    })
    try {
      const upload = uploads[0]
      if (!upload) throw apiError(400, QUESTIONNAIRE_TEXTS.noFile, { code: 'validation_error' })
      const productId = parseProductField(fields.product_id)
      const work = uploadWorkOf(fields)
      if (work && options.work) await options.work.check(orgOf(c), work)
      const created = await service.upload(orgOf(c), userOf(c), upload, productId)
      if (!work || !options.work) return c.json(created, 201)
      try {
        return c.json(await options.work.apply(orgOf(c), userOf(c), created.id, work), 201)
      } catch (error) {
        // nothing half-written: the questionnaire goes with the work it could not take
        await service.remove(orgOf(c), [created.id], undefined, userOf(c))
        throw error
      }
    } finally {
      await Promise.all(uploads.map((upload) => options.storage.discard(upload.temp)))
    }
  })

  app.post(paths.questionnaires.batchDelete, permit('questionnaires.write'), async (c) => {
    const body = await jsonBody(c, batchDeleteQuestionnairesSchema)
    return c.json({ deleted: await service.remove(orgOf(c), body.file_ids, ownerOf(c), userOf(c)) })
  })

  app.get(routePath(paths.questionnaires.get('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.get(orgOf(c), id))
  })
  app.get(routePath(paths.questionnaires.answers('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    const filter = query(c, answersQuerySchema)
    const orgId = orgOf(c)
    // the questionnaire row, read on every call (tenancy: another organisation's id is a 404),
    // names the state of every answer: each change moves its revision and updated_at
    const stamp = await service.stamp(orgId, id)
    const key = JSON.stringify(['answers', orgId, id, stamp, filter])
    return answersCache.respond(c, key, () => service.answers(orgId, id, filter))
  })
  app.get(routePath(paths.questionnaires.answersByTab('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.answersByTab(orgOf(c), id))
  })
  app.get(routePath(paths.questionnaires.tabs('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ tabs: await service.tabs(orgOf(c), id) })
  })
  app.get(routePath(paths.questionnaires.download('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    const file = await service.original(orgOf(c), id, userOf(c))
    return download(c, { ...file, stream: file.stream() })
  })
  const remove = async (c: Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    const deleted = await service.remove(orgOf(c), [id], ownerOf(c), userOf(c))
    if (!deleted) throw apiError(404, QUESTIONNAIRE_TEXTS.notFound, { code: 'not_found' })
    return c.json({ deleted })
  }
  app.get(routePath(paths.questionnaires.delete('{id}')), permit('questionnaires.write'), remove)
  app.delete(routePath(paths.questionnaires.delete('{id}')), permit('questionnaires.write'), remove)
  app.post(routePath(paths.questionnaires.delete('{id}')), permit('questionnaires.write'), remove)

  app.post(
    routePath(paths.questionnaires.reAnalyze('{id}')),
    permit('questionnaires.write'),
    async (c) => {
      const { id } = params(c, idParams)
      const text = await c.req.text()
      let raw: unknown = {}
      try {
        raw = text.trim() ? JSON.parse(text) : {}
      } catch {
        throw apiError(400, 'The request body is not valid JSON', { code: 'validation_error' })
      }
      const body = reanalyzeRequestSchema.safeParse(raw)
      if (!body.success)
        throw apiError(400, 'The mapping is not valid', {
          code: 'validation_error',
          msg: body.error.issues[0]?.message,
        })
      return c.json(await service.reanalyze(orgOf(c), id, body.data.mappings))
    },
  )

  app.get(routePath(paths.questionnaires.operations('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ operations: await service.operations(orgOf(c), id) })
  })
  app.post(
    routePath(paths.questionnaires.undo('{id}')),
    permit('questionnaires.write'),
    async (c) => {
      const { id } = params(c, idParams)
      return c.json(
        await service.undo(orgOf(c), userOf(c), id, can(c.get('auth').role, 'answers.approve')),
      )
    },
  )
}
