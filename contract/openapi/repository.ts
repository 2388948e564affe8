import { fileDetailsSchema, filePassageListSchema, filePassageQuerySchema } from '../file-page.ts'
import {
  batchDeleteRequestSchema,
  batchDeleteResponseSchema,
  deleteResponseSchema,
  fileListQuerySchema,
  fileStatsSchema,
  fileVersionListSchema,
  repositoryFileListSchema,
  repositoryFileSchema,
  updateTagsRequestSchema,
  uploadedFileSchema,
  uploadResponseSchema,
  urlUploadRequestSchema,
} from '../knowledge.ts'
import { paths } from '../paths.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const F = paths.files

const removeFile: OperationDoc = {
  summary: 'Delete a file with all its versions',
  description: 'Without `repository.delete`, only one’s own files.',
  access: 'repository.write',
  response: deleteResponseSchema,
}
const tags: OperationDoc = {
  summary: 'Replace a file’s tags',
  access: 'repository.write',
  body: updateTagsRequestSchema,
  response: repositoryFileSchema,
}

/** The document repository: files and pages Quire reads and indexes, and their versions. */
export const repositoryOperations: OperationDocs = {
  [op('GET', F.list)]: {
    summary: 'List the repository’s files, searched and filtered, a page at a time',
    access: 'read',
    query: fileListQuerySchema,
    response: repositoryFileListSchema,
  },
  [op('POST', F.upload)]: {
    summary: 'Upload files to the repository: all or none are taken',
    description:
      'Up to 20 files in the field `files`; `tags` as a JSON array or comma-separated text; `product_id` for the product they speak for. A file with the name of one already there becomes its next version.',
    access: 'repository.write',
    multipart: { fields: ['tags', 'product_id'] },
    response: uploadResponseSchema,
    status: 201,
  },
  [op('POST', F.uploadUrls)]: {
    summary: 'Add a public web page by its address; it is fetched and read in the background',
    access: 'repository.write',
    body: urlUploadRequestSchema,
    response: repositoryFileSchema,
    status: 201,
  },
  [op('POST', F.batchDelete)]: {
    summary: 'Delete several files at once',
    description: 'Without `repository.delete`, only when every one of them is one’s own.',
    access: 'repository.write',
    body: batchDeleteRequestSchema,
    response: batchDeleteResponseSchema,
  },
  [op('GET', F.get('{id}'))]: {
    summary: 'One file: its status, progress and what was read of it',
    access: 'read',
    response: repositoryFileSchema,
  },
  [op('GET', F.download('{id}'))]: {
    summary: 'Download a file’s current version',
    access: 'read',
    produces: 'file',
  },
  [op('GET', F.delete('{id}'))]: removeFile,
  [op('DELETE', F.delete('{id}'))]: removeFile,
  [op('POST', F.reprocess('{id}'))]: {
    summary: 'Read a file again from the start',
    access: 'repository.write',
    response: repositoryFileSchema,
  },
  [op('POST', F.updateTags('{id}'))]: tags,
  [op('PATCH', F.updateTags('{id}'))]: tags,
  [op('PUT', F.updateTags('{id}'))]: tags,
  [op('POST', F.replace('{id}'))]: {
    summary: 'Upload a new version of a file; its id stays',
    description: 'One file in the field `file` (or `files`).',
    access: 'repository.write',
    multipart: { fields: [] },
    response: uploadedFileSchema,
  },
  [op('GET', F.versions('{id}'))]: {
    summary: 'Every version of a file, newest first',
    access: 'read',
    response: fileVersionListSchema,
  },
  [op('GET', F.versionDownload('{id}', '{version}'))]: {
    summary: 'Download one version of a file, under the name it had then',
    access: 'read',
    produces: 'file',
  },
  [op('GET', F.details('{id}'))]: {
    summary: 'A file’s page: its status history, versions and what cites it',
    access: 'read',
    response: fileDetailsSchema,
  },
  [op('GET', F.passages('{id}'))]: {
    summary: 'What Quire read from a file, in order, a page at a time',
    access: 'read',
    query: filePassageQuerySchema,
    response: filePassageListSchema,
  },
  [op('GET', paths.account.fileStats)]: {
    summary: 'The repository’s files and bytes by kind and status, against the license’s limit',
    access: 'read',
    response: fileStatsSchema,
  },
}
