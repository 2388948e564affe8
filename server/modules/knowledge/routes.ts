import { safeParse } from 'zod/v4/core'
import {
  dataItemCreateSchema,
  dataItemUpdateSchema,
  fileListQuerySchema,
  fillText,
  type ImportPreview,
  importMappingSchema,
  itemListQuerySchema,
  KNOWLEDGE_TEXTS,
  qaItemCreateSchema,
  qaItemUpdateSchema,
  searchQuerySchema,
} from '../../../contract/knowledge.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { apiError, validationError } from '../../http/errors.ts'
import { readMultipart } from '../../http/multipart.ts'
import { createResponseCache } from '../../http/response-cache.ts'
import { areaRouter, idParams, orgOf } from '../../http/route-kit.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import {
  detectFileKind,
  ParseError,
  propertiesDate,
  qaRowsOf,
  readTable,
  recogniseQaColumns,
  SKIP_REASONS,
  statedInRows,
} from '../../ingest/index.ts'
import type { Storage } from '../../storage/index.ts'
import { columnLetters } from '../../workbooks/cells.ts'
import type { RepositoryService } from '../repository/service.ts'
import type { KnowledgeService } from './service.ts'

const ID = ':id{[0-9]+}'

export function knowledgeRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: KnowledgeService
  repository: RepositoryService
  storage: Storage
  maxUploadBytes: number
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })
  const searchCache = createResponseCache(32 * 1024 * 1024)

  const callerOf = (c: import('hono').Context<AuthEnv>) => ({
    userId: c.get('auth').user.id,
    role: c.get('auth').user.role,
  })
  app.get(paths.knowledgeBase.qa, permit('read'), async (c) =>
    c.json(await service.listQa(orgOf(c), query(c, itemListQuerySchema), callerOf(c))),
  )
  app.get(paths.knowledgeBase.answered, permit('read'), async (c) =>
    c.json(await service.listAnswered(orgOf(c), query(c, itemListQuerySchema))),
  )
  app.post(paths.knowledgeBase.qa, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, qaItemCreateSchema)
    return c.json(await service.createQa(orgOf(c), c.get('auth').user.id, body), 201)
  })
  app.get(`/knowledge-base/qa/${ID}/`, permit('read'), async (c) =>
    c.json(await service.getQa(orgOf(c), params(c, idParams).id)),
  )
  app.patch(`/knowledge-base/qa/${ID}/`, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, qaItemUpdateSchema)
    return c.json(
      await service.updateQa(orgOf(c), c.get('auth').user.id, params(c, idParams).id, body),
    )
  })
  app.post(`/knowledge-base/qa/${ID}/reviewed/`, permit('read'), async (c) =>
    c.json(await service.reviewedQa(orgOf(c), callerOf(c), params(c, idParams).id)),
  )
  app.delete(`/knowledge-base/qa/${ID}/delete/`, permit('library.manage'), async (c) => {
    await service.deleteQa(orgOf(c), params(c, idParams).id, c.get('auth').user.id)
    return c.json({ deleted: 1 })
  })

  app.get(paths.knowledgeBase.data, permit('read'), async (c) =>
    c.json(await service.listData(orgOf(c), query(c, itemListQuerySchema))),
  )
  app.post(paths.knowledgeBase.data, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, dataItemCreateSchema)
    return c.json(await service.createData(orgOf(c), c.get('auth').user.id, body), 201)
  })
  app.get(`/knowledge-base/data/${ID}/`, permit('read'), async (c) =>
    c.json(await service.getData(orgOf(c), params(c, idParams).id)),
  )
  app.patch(`/knowledge-base/data/${ID}/`, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, dataItemUpdateSchema)
    return c.json(
      await service.updateData(orgOf(c), c.get('auth').user.id, params(c, idParams).id, body),
    )
  })
  app.delete(`/knowledge-base/data/${ID}/delete/`, permit('library.manage'), async (c) => {
    await service.deleteData(orgOf(c), params(c, idParams).id, c.get('auth').user.id)
    return c.json({ deleted: 1 })
  })

  app.get(paths.knowledgeBase.files, permit('read'), async (c) => {
    const q = query(c, fileListQuerySchema)
    return c.json(await options.repository.list(orgOf(c), { ...q, status: 'ready' }))
  })

  app.get(paths.knowledgeBase.search, permit('read'), async (c) => {
    const parsed = safeParse(searchQuerySchema, c.req.query())
    if (!parsed.success) throw validationError(parsed.error, parsed.error.issues[0]?.message)
    const orgId = orgOf(c)
    // the same search over unchanged knowledge gives the same results: kept by that state
    const key = JSON.stringify(['search', orgId, await service.stamp(orgId), parsed.data])
    return searchCache.respond(c, key, async () => ({
      results: await service.search(orgId, parsed.data),
    }))
  })

  /** Reads the one table file of an import request (CSV or XLSX only). */
  async function tableOf(c: import('hono').Context<AuthEnv>) {
    const { uploads, fields } = await readMultipart(c, options.storage, {
      maxBytes: options.maxUploadBytes,
      maxFiles: 1,
      fileFields: ['file', 'files'],
    })
    const upload = uploads[0]
    try {
      if (!upload) throw apiError(400, KNOWLEDGE_TEXTS.noFiles, { code: 'validation_error' })
      const detected = await detectFileKind(upload.temp.path, upload.filename)
      if (!detected.ok && detected.reason === 'unsafe') {
        throw apiError(
          422,
          fillText(KNOWLEDGE_TEXTS.unsafePackage, {
            name: upload.filename,
            reason: detected.message,
          }),
          { code: 'unsafe_file' },
        )
      }
      if (!detected.ok || (detected.kind !== 'csv' && detected.kind !== 'xlsx')) {
        throw apiError(415, KNOWLEDGE_TEXTS.importNeedsTable, { code: 'unsupported_media_type' })
      }
      try {
        const table = await readTable(upload.temp.path, detected.kind, { name: upload.filename })
        // the date the file says it was answered: a 'Date' row near the top of a sheet, else an
        // Excel file's document properties (issue 39: imported rows were dated the day of import)
        const pairs = table.sheets.flatMap((sheet) =>
          sheet.rows.slice(0, 60).flatMap((row) =>
            row.slice(0, -1).map((cell, i) => ({
              text: cell,
              qa: { question: cell, answer: row[i + 1] ?? '' },
            })),
          ),
        )
        const statedAt =
          statedInRows(pairs) ??
          (detected.kind === 'xlsx' ? await propertiesDate(upload.temp.path) : null)
        return { table, kind: detected.kind, filename: upload.filename, fields, statedAt }
      } catch (error) {
        if (error instanceof ParseError)
          throw apiError(422, error.message, { code: 'unreadable_file' })
        throw error
      }
    } finally {
      if (upload) await options.storage.discard(upload.temp)
    }
  }

  app.post(paths.knowledgeBase.importPreview, permit('library.manage'), async (c) => {
    const { table, kind, filename, statedAt } = await tableOf(c)
    const body: ImportPreview = {
      filename,
      kind,
      stated_at: statedAt ? statedAt.toISOString().slice(0, 10) : null,
      sheets: table.sheets.map((sheet) => {
        const guess = recogniseQaColumns(sheet.rows)
        const header = sheet.rows[guess.headerRow - 1] ?? []
        const width = Math.max(
          header.length,
          ...sheet.rows.slice(guess.headerRow, guess.headerRow + 20).map((r) => r.length),
          0,
        )
        return {
          name: sheet.name,
          header_row: guess.headerRow,
          columns: Array.from({ length: width }, (_, i) => ({
            key: columnLetters(i),
            header: header[i] ?? '',
          })),
          sample: sheet.rows.slice(guess.headerRow, guess.headerRow + 20).map((row, i) => ({
            row: guess.headerRow + i + 1,
            cells: Object.fromEntries(
              row.flatMap((cell, c) => (cell ? [[columnLetters(c), cell.slice(0, 500)]] : [])),
            ),
          })),
          row_count: Math.max(0, sheet.rows.length - guess.headerRow),
          // what the suggested mapping leaves out, and why (the first 50)
          skipped:
            guess.question === null || guess.answer === null
              ? []
              : qaRowsOf(sheet.rows, {
                  headerRow: guess.headerRow,
                  question: guess.question,
                  answer: guess.answer,
                  dropdown: guess.dropdown,
                })
                  .skipped.slice(0, 50)
                  .map(({ row, reason, text }) => ({ row, reason: SKIP_REASONS[reason], text })),
          suggested: {
            question: guess.question === null ? null : columnLetters(guess.question),
            answer: guess.answer === null ? null : columnLetters(guess.answer),
            dropdown: guess.dropdown === null ? null : columnLetters(guess.dropdown),
            tags: guess.tags === null ? null : columnLetters(guess.tags),
          },
        }
      }),
    }
    return c.json(body)
  })

  app.post(paths.knowledgeBase.import, permit('library.manage'), async (c) => {
    const { table, filename, fields, statedAt } = await tableOf(c)
    let raw: unknown
    try {
      raw = JSON.parse(fields.mapping ?? '')
    } catch {
      throw apiError(400, 'Send the column mapping as JSON in the field mapping', {
        code: 'validation_error',
      })
    }
    const mapping = safeParse(importMappingSchema, raw)
    if (!mapping.success) throw validationError(mapping.error, mapping.error.issues[0]?.message)
    return c.json(
      await service.importQa(
        orgOf(c),
        c.get('auth').user.id,
        table.sheets,
        mapping.data,
        filename,
        statedAt,
      ),
    )
  })

  return app.app
}
