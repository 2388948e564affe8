import { fromPromise } from 'xstate'
import {
  answeredRowListSchema,
  dataItemListSchema,
  dataItemSchema,
  deleteResponseSchema,
  type FileStats,
  type FileVersion,
  fileStatsSchema,
  fileVersionListSchema,
  type ImportPreview,
  type ImportResult,
  importPreviewSchema,
  importResultSchema,
  type QaItem,
  qaItemListSchema,
  qaItemSchema,
  repositoryFileListSchema,
  repositoryFileSchema,
  type SearchResult,
  searchResponseSchema,
  uploadedFileSchema,
  uploadResponseSchema,
} from '../../contract/knowledge.ts'
import { organizationSchema } from '../../contract/organization.ts'
import { paths } from '../../contract/paths.ts'
import { type LibraryHealth, libraryHealthSchema } from '../../contract/questionnaires.ts'
import { can } from '../../contract/roles.ts'
import { adminUserListSchema } from '../../contract/users.ts'
import type { AddUrlInput } from '../../machines/add-by-url/index.ts'
import type { FileAction, FileQuery, ListOutput } from '../../machines/file-list/index.ts'
import type { ReplaceInput } from '../../machines/file-versions/index.ts'
import type { ItemMode, SaveItemInput } from '../../machines/item-editor/index.ts'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import type { OwnerChoices } from '../../machines/owner-choices/index.ts'
import type { ImportFile, ImportInput } from '../../machines/qa-import/index.ts'
import type {
  PollInput,
  PollOutput,
  UploadInput,
  UploadQueueEvents,
} from '../../machines/upload-queue/index.ts'
import { type ApiClient, api } from './client.ts'
import { downloadPath } from './download.ts'
import { asFile, batchDeleteActor, uploadActor } from './upload.ts'

/**
 * The real side effects of the repository and knowledge-base machines.
 */

export function repositoryActors(client: ApiClient = api) {
  const listQuery = (query: FileQuery) => {
    const search = new URLSearchParams({
      page: String(query.page),
      page_size: String(query.page_size),
    })
    for (const key of ['q', 'kind', 'status', 'tag', 'product'] as const)
      if (query[key]) search.set(key, query[key])
    return search
  }
  return {
    uploadFile: uploadActor<UploadQueueEvents, UploadInput>(
      client,
      paths.files.upload,
      'files',
      (body, key) => {
        const parsed = uploadResponseSchema.safeParse(body)
        const file = parsed.success ? parsed.data.files[0] : undefined
        return file && { type: 'upload.done', key, file }
      },
    ),
    pollFiles: fromPromise<PollOutput, PollInput>(async ({ input }) =>
      Promise.all(input.ids.map((id) => client.get(paths.files.get(id), repositoryFileSchema))),
    ),
    loadFiles: fromPromise<ListOutput, FileQuery>(async ({ input }) =>
      client.get(`${paths.files.list}?${listQuery(input)}`, repositoryFileListSchema),
    ),
    deleteFiles: batchDeleteActor(client, paths.files.batchDelete),
    runAction: fromPromise<void, FileAction>(async ({ input }) => {
      if (input.kind === 'reprocess')
        await client.post(paths.files.reprocess(input.id), {}, repositoryFileSchema)
      else
        await client.post(
          paths.files.updateTags(input.id),
          { tags: input.tags },
          repositoryFileSchema,
        )
    }),
    addUrl: fromPromise(async ({ input }: { input: AddUrlInput }) =>
      client.post(paths.files.uploadUrls, input, repositoryFileSchema),
    ),
    loadStats: fromPromise<FileStats, void>(async () =>
      client.get(paths.account.fileStats, fileStatsSchema),
    ),
    loadVersions: fromPromise<FileVersion[], { id: number }>(async ({ input }) => {
      const body = await client.get(paths.files.versions(input.id), fileVersionListSchema)
      return body.results
    }),
    replaceFile: fromPromise(async ({ input }: { input: ReplaceInput }) => {
      const form = new FormData()
      form.append('file', asFile(input.source), input.source.name)
      return client.post(paths.files.replace(input.id), form, uploadedFileSchema)
    }),
  }
}

/** Downloads one version of a repository file under the name it had then. */
export const downloadFileVersion = (
  id: number,
  version: number,
  name: string,
  client: ApiClient = api,
) => downloadPath(paths.files.versionDownload(id, version), name, client)

/** Downloads a repository file with the bearer token and saves it under its name. */
export const downloadFile = (id: number, name: string, client: ApiClient = api) =>
  downloadPath(paths.files.download(id), name, client)

export function knowledgeActors(client: ApiClient = api) {
  return {
    loadHealth: fromPromise<LibraryHealth, void>(async () =>
      client.get(paths.knowledgeBase.health, libraryHealthSchema),
    ),
    saveItem: fromPromise<void, SaveItemInput>(async ({ input }) => {
      if (input.mode === 'qa') {
        if (input.id === null) await client.post(paths.knowledgeBase.qa, input.body, qaItemSchema)
        else
          await client.request(paths.knowledgeBase.qaItem(input.id), qaItemSchema, {
            method: 'PATCH',
            body: input.body,
          })
      } else if (input.id === null)
        await client.post(paths.knowledgeBase.data, input.body, dataItemSchema)
      else
        await client.request(paths.knowledgeBase.dataItem(input.id), dataItemSchema, {
          method: 'PATCH',
          body: input.body,
        })
    }),
    markReviewed: fromPromise<QaItem, { id: number }>(async ({ input }) =>
      client.post(paths.knowledgeBase.qaReviewed(input.id), {}, qaItemSchema),
    ),
    loadOwnerChoices: fromPromise<OwnerChoices, void>(async () => {
      // people are listed only to those who manage them: others choose themselves or nobody
      const [people, organization] = await Promise.all([
        client
          .get(`${paths.users.list}?page_size=200&status=active`, adminUserListSchema)
          .then((list) =>
            list.results
              .filter((person) => can(person.role, 'repository.write'))
              .map((person) => ({
                id: person.id,
                name: `${person.first_name} ${person.last_name}`.trim() || person.email,
              })),
          )
          .catch(() => null),
        client.get(paths.account.organization, organizationSchema).catch(() => null),
      ])
      return { people, reviewCycleDays: organization?.review_cycle_days ?? null }
    }),
    deleteItem: fromPromise<void, { mode: ItemMode; id: number }>(async ({ input }) => {
      const path =
        input.mode === 'qa'
          ? paths.knowledgeBase.deleteQa(input.id)
          : paths.knowledgeBase.deleteData(input.id)
      await client.delete(path, deleteResponseSchema)
    }),
    search: fromPromise<SearchResult[], { q: string }>(async ({ input, signal }) => {
      const body = await client.get(
        `${paths.knowledgeBase.search}?${new URLSearchParams({ q: input.q, limit: '20' })}`,
        searchResponseSchema,
        { signal },
      )
      return body.results
    }),
    previewFile: fromPromise<ImportPreview, { file: ImportFile }>(async ({ input }) => {
      const form = new FormData()
      form.append('file', asFile(input.file), input.file.name)
      return client.post(paths.knowledgeBase.importPreview, form, importPreviewSchema)
    }),
    importFile: fromPromise<ImportResult, ImportInput>(async ({ input }) => {
      const form = new FormData()
      form.append('file', asFile(input.file), input.file.name)
      form.append('mapping', JSON.stringify(input.mapping))
      return client.post(paths.knowledgeBase.import, form, importResultSchema)
    }),
  }
}

/** Loads one page of Q&A items, data items or ready files. */
export function itemListActors(client: ApiClient = api) {
  return {
    loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
      async ({ input }) => {
        const search = new URLSearchParams({
          page: String(input.page),
          page_size: String(input.page_size),
        })
        if (input.q) search.set('q', input.q)
        if (input.id) search.set('id', String(input.id))
        if (input.kind === 'qa' && input.queue) return loadQueue(client, search)
        if (input.kind === 'qa') {
          if (input.freshness) search.set('freshness', input.freshness)
          if (input.owner) search.set('owner', input.owner)
          if (input.product !== null) search.set('product', String(input.product))
          return client.get(`${paths.knowledgeBase.qa}?${search}`, qaItemListSchema)
        }
        if (input.kind === 'data')
          return client.get(`${paths.knowledgeBase.data}?${search}`, dataItemListSchema)
        if (input.kind === 'answered')
          return client.get(`${paths.knowledgeBase.answered}?${search}`, answeredRowListSchema)
        return client.get(`${paths.knowledgeBase.files}?${search}`, repositoryFileListSchema)
      },
    ),
  }
}

/**
 * The review queue: the caller's Q&A items that are due or stale, soonest due first. Ordered by
 * review, those come before every fresh item, so a page of the caller's items is a page of the
 * queue once its fresh items are left out; the queue's size is the caller's items less the fresh.
 */
async function loadQueue(client: ApiClient, search: URLSearchParams) {
  const mine = new URLSearchParams(search)
  mine.set('owner', 'me')
  mine.set('order', 'review')
  const fresh = new URLSearchParams({ owner: 'me', freshness: 'fresh', page_size: '1' })
  const q = search.get('q')
  if (q) fresh.set('q', q)
  const [page, freshOnes] = await Promise.all([
    client.get(`${paths.knowledgeBase.qa}?${mine}`, qaItemListSchema),
    client.get(`${paths.knowledgeBase.qa}?${fresh}`, qaItemListSchema),
  ])
  return {
    count: Math.max(0, page.count - freshOnes.count),
    results: page.results.filter((item) => item.freshness !== 'fresh'),
  }
}
