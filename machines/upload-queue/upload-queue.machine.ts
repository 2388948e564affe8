import { assign, emit, enqueueActions, fromCallback, fromPromise, setup } from 'xstate'
import {
  DEFAULT_MAX_UPLOAD_MB,
  FILE_EXTENSIONS,
  type FileStatus,
  fillText,
  KNOWLEDGE_TEXTS,
} from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_STATUS_POLL_MS, MAX_PARALLEL_UPLOADS } from '../constants.ts'
import type {
  PollInput,
  PollOutput,
  QueueItem,
  QueueItemStatus,
  UploadedAs,
  UploadInput,
  UploadQueueEvents,
  UploadQueueSchema,
  UploadSource,
} from './upload-queue.types.ts'

/**
 * The repository's upload queue: every dropped or picked file gets its own row with a progress
 * bar. A file is checked first (type and size, with the server's texts), waits for one of the
 * parallel upload slots, uploads with progress, then is followed while the server processes it
 * until it is ready or failed. Failed uploads can be retried; finished rows can be cleared. A file
 * whose name is already in the repository becomes its new version: the row says so, and the
 * machine emits `versioned` for a toast.
 */

const mustBeProvided = mustBeProvidedIn('uploadQueueMachine')

const ACCEPTED = Object.values(FILE_EXTENSIONS).flat()

/** Why a file is refused before any request, in the server's words; null when it may go. */
export function refusal(source: UploadSource, maxUploadMb: number): string | null {
  const dot = source.name.lastIndexOf('.')
  const ext = dot >= 0 ? source.name.slice(dot).toLowerCase() : ''
  if (!ACCEPTED.includes(ext))
    return fillText(KNOWLEDGE_TEXTS.unsupportedType, { name: source.name })
  if (source.size === 0) return fillText(KNOWLEDGE_TEXTS.emptyFile, { name: source.name })
  if (source.size > maxUploadMb * 1024 * 1024) {
    return fillText(KNOWLEDGE_TEXTS.fileTooLarge, { name: source.name, limit: maxUploadMb })
  }
  return null
}

const serverStatus = (status: FileStatus): QueueItemStatus =>
  status === 'ready' ? 'ready' : status === 'failed' ? 'failed' : 'processing'

const update = (items: QueueItem[], key: string, change: Partial<QueueItem>) =>
  items.map((item) => (item.key === key ? { ...item, ...change } : item))

export const uploadQueueMachine = setup({
  types: {} as UploadQueueSchema,
  actors: {
    uploadFile: fromCallback<UploadQueueEvents, UploadInput>(mustBeProvided('uploadFile')),
    pollFiles: fromPromise<PollOutput, PollInput>(mustBeProvided('pollFiles')),
  },
  delays: { pollInterval: FILE_STATUS_POLL_MS },
  guards: {
    hasProcessing: ({ context }) => context.items.some((item) => item.status === 'processing'),
  },
  actions: {
    addFiles: assign(({ context }, files: UploadSource[]) => {
      let nextKey = context.nextKey
      const added = files.map((source): QueueItem => {
        const error = refusal(source, context.maxUploadMb)
        nextKey += 1
        return {
          key: `u${nextKey}`,
          name: source.name,
          size: source.size,
          status: error ? 'failed' : 'waiting',
          progress: 0,
          error,
          fileId: null,
          newVersion: null,
          unchanged: false,
          source,
          productId: context.productId,
        }
      })
      return { items: [...context.items, ...added], nextKey }
    }),
    /** Fills the free upload slots with waiting files, oldest first. */
    startUploads: enqueueActions(({ context, enqueue }) => {
      let running = context.items.filter((item) => item.status === 'uploading').length
      let items = context.items
      for (const item of context.items) {
        if (running >= MAX_PARALLEL_UPLOADS) break
        if (item.status !== 'waiting') continue
        running += 1
        items = update(items, item.key, { status: 'uploading', progress: 0, error: null })
        enqueue.spawnChild('uploadFile', {
          id: `upload-${item.key}`,
          input: { key: item.key, source: item.source, productId: item.productId },
        })
      }
      enqueue.assign({ items })
    }),
    setProgress: assign(({ context }, params: { key: string; progress: number }) => ({
      items: update(context.items, params.key, {
        progress: Math.max(0, Math.min(100, params.progress)),
      }),
    })),
    uploaded: assign(({ context }, params: { key: string; file: UploadedAs }) => ({
      items: update(context.items, params.key, {
        status: serverStatus(params.file.status),
        progress: params.file.progress,
        error: params.file.error,
        fileId: params.file.id,
        newVersion: params.file.new_version || params.file.unchanged ? params.file.version : null,
        unchanged: params.file.unchanged ?? false,
      }),
    })),
    announceVersion: enqueueActions(({ enqueue }, file: UploadedAs) => {
      if (file.new_version || file.unchanged)
        enqueue.emit({
          type: 'versioned',
          name: file.name,
          version: file.version,
          unchanged: file.unchanged ?? false,
        })
    }),
    uploadFailed: assign(({ context }, params: { key: string; error: string }) => ({
      items: update(context.items, params.key, {
        status: 'failed',
        error: params.error,
        progress: 0,
      }),
    })),
    stopUpload: enqueueActions(({ enqueue }, key: string) => {
      enqueue.stopChild(`upload-${key}`)
    }),
    retry: assign(({ context }, key: string) => ({
      // only a failed upload goes again; a file the server failed is reprocessed from the list
      items: context.items.map((item) =>
        item.key === key &&
        item.status === 'failed' &&
        item.fileId === null &&
        !refusal(item.source, context.maxUploadMb)
          ? { ...item, status: 'waiting' as const, error: null, progress: 0 }
          : item,
      ),
    })),
    remove: assign(({ context }, key: string) => ({
      items: context.items.filter((item) => item.key !== key || item.status === 'uploading'),
    })),
    clearFinished: assign(({ context }) => ({
      items: context.items.filter((item) => item.status !== 'ready' && item.status !== 'failed'),
    })),
    applyStatuses: assign(({ context }, statuses: PollOutput) => ({
      items: context.items.map((item) => {
        const found = statuses.find((status) => status.id === item.fileId)
        if (!found || item.status !== 'processing') return item
        return {
          ...item,
          status: serverStatus(found.status),
          progress: found.progress,
          error: found.error,
        }
      }),
    })),
    announce: emit({ type: 'changed' as const }),
  },
}).createMachine({
  id: 'uploadQueue',
  context: ({ input }) => ({
    items: [],
    nextKey: 0,
    maxUploadMb: input?.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB,
    productId: null,
  }),
  initial: 'idle',
  on: {
    'files.add': {
      actions: [{ type: 'addFiles', params: ({ event }) => event.files }, 'startUploads'],
    },
    'upload.progress': {
      actions: { type: 'setProgress', params: ({ event }) => event },
    },
    'upload.done': {
      target: '.settling',
      actions: [
        { type: 'uploaded', params: ({ event }) => event },
        { type: 'announceVersion', params: ({ event }) => event.file },
        'startUploads',
        'announce',
      ],
    },
    'upload.failed': {
      actions: [{ type: 'uploadFailed', params: ({ event }) => event }, 'startUploads'],
    },
    retry: { actions: [{ type: 'retry', params: ({ event }) => event.key }, 'startUploads'] },
    remove: { actions: { type: 'remove', params: ({ event }) => event.key } },
    'clear.finished': { actions: 'clearFinished' },
    'product.choose': { actions: assign({ productId: ({ event }) => event.productId }) },
  },
  states: {
    idle: {
      description: 'Nothing is being processed by the server (uploads may be running).',
    },
    settling: {
      description: 'An upload finished: follow it if the server is still processing it.',
      always: [{ guard: 'hasProcessing', target: 'watching' }, { target: 'idle' }],
    },
    watching: {
      description: 'Some uploaded files are still queued or processing: ask again after a pause.',
      after: { pollInterval: 'polling' },
    },
    polling: {
      description: 'The server is asked how the files it processes are doing.',
      invoke: {
        src: 'pollFiles',
        input: ({ context }) => ({
          ids: context.items.flatMap((item) =>
            item.status === 'processing' && item.fileId !== null ? [item.fileId] : [],
          ),
        }),
        onDone: {
          target: 'settling',
          actions: [{ type: 'applyStatuses', params: ({ event }) => event.output }, 'announce'],
        },
        // a failed check is tried again at the next interval
        onError: 'watching',
      },
    },
  },
})
