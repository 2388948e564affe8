import { paths } from '../../../../contract/paths.ts'
import {
  exportBasicRequestSchema,
  exportOriginalRequestSchema,
  exportRequestSchema,
  filledFileQuerySchema,
} from '../../../../contract/questionnaires.ts'
import type { Permit } from '../../../auth/permissions.ts'
import { sendDownload as download } from '../../../http/download.ts'
import { type AreaRouter, idParams, orgOf, routePath, userOf } from '../../../http/route-kit.ts'
import { jsonBody, params, query } from '../../../http/validate.ts'
import type { ExportService } from '../export.ts'

/** Exports: the customer's file filled, or a plain one, built as a job; the filled file. */
export function exportRoutes(app: AreaRouter, options: { permit: Permit; exports: ExportService }) {
  const { exports, permit } = options
  // an export runs as a job (issue 37): 202 with the run at once, then GET exports/{id}/
  app.post(paths.questionnaires.exportOriginal, permit('read'), async (c) => {
    const body = await jsonBody(c, exportOriginalRequestSchema)
    const run = await exports.start(
      orgOf(c),
      userOf(c),
      body.questionnaire_id,
      'original',
      body.approved_only,
    )
    return c.json({ export: run }, 202)
  })
  app.post(paths.questionnaires.exportBasic, permit('read'), async (c) => {
    const body = await jsonBody(c, exportBasicRequestSchema)
    const run = await exports.start(orgOf(c), userOf(c), body.questionnaire_id, body.format)
    return c.json({ export: run }, 202)
  })
  app.get(routePath(paths.questionnaires.exportRun('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ export: await exports.get(orgOf(c), id) })
  })
  app.post(paths.questionnaires.checkFilledFile, permit('read'), async (c) => {
    const body = await jsonBody(c, exportRequestSchema)
    return c.json(await exports.check(orgOf(c), body.questionnaire_id))
  })
  app.get(paths.questionnaires.checkFilledFile, permit('read'), async (c) => {
    const { questionnaire_id } = query(c, filledFileQuerySchema)
    return c.json(await exports.check(orgOf(c), questionnaire_id))
  })
  app.get(paths.questionnaires.downloadFilledFile, permit('read'), async (c) => {
    const { questionnaire_id } = query(c, filledFileQuerySchema)
    return download(c, await exports.latestBlob(orgOf(c), questionnaire_id, userOf(c)))
  })
  app.get(routePath(paths.questionnaires.filledFileDownload('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return download(c, await exports.blob(orgOf(c), id, userOf(c)))
  })
}
