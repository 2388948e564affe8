import { filePassageQuerySchema } from '../../../contract/file-page.ts'
import {
  batchDeleteRequestSchema,
  fileListQuerySchema,
  fileVersionParamsSchema,
  KNOWLEDGE_TEXTS,
  updateTagsRequestSchema,
  urlUploadRequestSchema,
} from '../../../contract/knowledge.ts'
import { paths } from '../../../contract/paths.ts'
import { can } from '../../../contract/roles.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { sendDownload } from '../../http/download.ts'
import { apiError } from '../../http/errors.ts'
import { parseProductField, parseTagsField, readMultipart } from '../../http/multipart.ts'
import { areaRouter, idParams, routePath } from '../../http/route-kit.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import { checkUrl } from '../../net/safe-fetch.ts'
import type { Storage } from '../../storage/index.ts'
import type { RepositoryService } from './service.ts'

export function repositoryRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: RepositoryService
  storage: Storage
  maxUploadBytes: number
  urlFetchAllow: string[]
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })

  app.get(paths.files.list, permit('read'), async (c) => {
    return c.json(await service.list(c.get('auth').org.id, query(c, fileListQuerySchema)))
  })

  /** Deleting (or replacing) anyone's files takes repository.delete; without it, one's own only. */
  const ownerOf = (c: import('hono').Context<AuthEnv>) => {
    const auth = c.get('auth')
    return can(auth.role, 'repository.delete') ? undefined : auth.user.id
  }

  app.post(paths.files.upload, permit('repository.write'), async (c) => {
    const auth = c.get('auth')
    const { uploads, fields } = await readMultipart(c, options.storage, {
      maxBytes: options.maxUploadBytes,
      fileFields: ['files', 'file'],
    })
    try {
      if (!uploads.length)
        throw apiError(400, KNOWLEDGE_TEXTS.noFiles, { code: 'validation_error' })
      const tags = parseTagsField(fields.tags)
      const parsedTags = updateTagsRequestSchema.safeParse({ tags })
      if (!parsedTags.success)
        throw apiError(400, 'Tags must be at most 20, each up to 40 characters', {
          code: 'validation_error',
        })
      const files = await service.addUploads(
        auth.org.id,
        auth.user.id,
        uploads,
        parsedTags.data.tags,
        ownerOf(c),
        parseProductField(fields.product_id),
      )
      return c.json({ files }, 201)
    } finally {
      // committed temps were renamed away; anything left is discarded
      await Promise.all(uploads.map((upload) => options.storage.discard(upload.temp)))
    }
  })

  app.post(paths.files.uploadUrls, permit('repository.write'), async (c) => {
    const auth = c.get('auth')
    const body = await jsonBody(c, urlUploadRequestSchema)
    const checked = checkUrl(body.url, options.urlFetchAllow)
    if (!checked.ok) {
      throw apiError(400, checked.error.message, {
        code: checked.error.code === 'blocked' ? 'url_blocked' : 'validation_error',
      })
    }
    return c.json(await service.addUrl(auth.org.id, auth.user.id, checked.url, body.tags), 201)
  })

  app.post(paths.files.batchDelete, permit('repository.write'), async (c) => {
    const body = await jsonBody(c, batchDeleteRequestSchema)
    return c.json({
      deleted: await service.remove(
        c.get('auth').org.id,
        body.file_ids,
        ownerOf(c),
        c.get('auth').user.id,
      ),
    })
  })

  app.get(routePath('/files/{id}/'), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.getFile(c.get('auth').org.id, id))
  })

  app.get(routePath('/files/{id}/download/'), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    const auth = c.get('auth')
    return sendDownload(c, await service.blob(auth.org.id, id, auth.user.id))
  })

  const remove = async (c: import('hono').Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    const deleted = await service.remove(
      c.get('auth').org.id,
      [id],
      ownerOf(c),
      c.get('auth').user.id,
    )
    if (!deleted) throw apiError(404, KNOWLEDGE_TEXTS.fileNotFound, { code: 'not_found' })
    return c.json({ deleted })
  }
  app.get(routePath('/files/{id}/delete/'), permit('repository.write'), remove)
  app.delete(routePath('/files/{id}/delete/'), permit('repository.write'), remove)

  app.post(routePath('/files/{id}/reprocess/'), permit('repository.write'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.reprocess(c.get('auth').org.id, id))
  })

  const tags = async (c: import('hono').Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, updateTagsRequestSchema)
    return c.json(await service.updateTags(c.get('auth').org.id, id, body.tags))
  }
  app.post(routePath('/files/{id}/update-tags/'), permit('repository.write'), tags)
  app.patch(routePath('/files/{id}/update-tags/'), permit('repository.write'), tags)
  app.put(routePath('/files/{id}/update-tags/'), permit('repository.write'), tags)

  /* issue 28: versions (versions.ts) */
  app.post(routePath('/files/{id}/replace/'), permit('repository.write'), async (c) => {
    const auth = c.get('auth')
    const { id } = params(c, idParams)
    const { uploads } = await readMultipart(c, options.storage, {
      maxBytes: options.maxUploadBytes,
      fileFields: ['files', 'file'],
    })
    try {
      const upload = uploads[0]
      if (!upload || uploads.length > 1)
        throw apiError(400, KNOWLEDGE_TEXTS.replaceOneFile, { code: 'validation_error' })
      return c.json(await service.replace(auth.org.id, auth.user.id, id, upload, ownerOf(c)))
    } finally {
      await Promise.all(uploads.map((upload) => options.storage.discard(upload.temp)))
    }
  })

  app.get(routePath('/files/{id}/versions/'), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.versions(c.get('auth').org.id, id))
  })

  app.get(
    routePath('/files/{id}/versions/:version{[0-9]+}/download/'),
    permit('read'),
    async (c) => {
      const { id, version } = params(c, fileVersionParamsSchema)
      const auth = c.get('auth')
      return sendDownload(c, await service.versionBlob(auth.org.id, id, version, auth.user.id))
    },
  )

  /* issue 30: a file's page (details.ts) */
  app.get(routePath('/files/{id}/details/'), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.details(c.get('auth').org.id, id))
  })

  app.get(routePath('/files/{id}/passages/'), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(
      await service.passages(c.get('auth').org.id, id, query(c, filePassageQuerySchema)),
    )
  })

  app.get(paths.account.fileStats, permit('read'), async (c) =>
    c.json(await service.stats(c.get('auth').org.id)),
  )

  return app.app
}
