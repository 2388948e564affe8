import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import { FILE_STATUS_POLL_MS, MAX_PARALLEL_UPLOADS } from '../../machines/constants.ts'
import * as view from '../../machines/upload-queue/index.ts'
import {
  type PollInput,
  type PollOutput,
  refusal,
  type UploadInput,
  type UploadQueueEvents,
  uploadQueueMachine,
} from '../../machines/upload-queue/index.ts'
import { repositoryFileOf } from '../fixtures/repository-files.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const file = (id: number, status: RepositoryFile['status']) =>
  repositoryFileOf({
    id,
    name: `f${id}.pdf`,
    size: 10,
    status,
    progress: status === 'ready' ? 100 : 10,
    error: status === 'failed' ? 'The PDF is password-protected' : null,
    pages: null,
    passages: 0,
    added_by: null,
  })

const pending = pendingActors(uploadQueueMachine)

const events: AnyEventObject[] = [
  { type: 'files.add', files: [{ name: 'policy.pdf', size: 100 }] },
  { type: 'files.add', files: [{ name: 'virus.exe', size: 100 }] },
  { type: 'upload.progress', key: 'u1', progress: 50 },
  { type: 'upload.done', key: 'u1', file: file(1, 'processing') },
  { type: 'upload.done', key: 'u1', file: file(1, 'ready') },
  {
    type: 'upload.done',
    key: 'u1',
    file: { ...file(1, 'processing'), version: 2, new_version: true, unchanged: false },
  },
  { type: 'upload.failed', key: 'u1', error: 'Network error' },
  { type: 'retry', key: 'u1' },
  { type: 'remove', key: 'u1' },
  { type: 'clear.finished' },
  { type: 'product.choose', productId: 3 },
  {
    type: 'xstate.done.actor.0.uploadQueue.polling',
    output: [{ id: 1, status: 'ready', progress: 100, error: null }],
  },
  { type: 'xstate.error.actor.0.uploadQueue.polling', error: new Error('offline') },
]

describe('uploadQueueMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (snapshot) => [
      [
        ...new Set(
          snapshot.context.items.map(
            (item) => `${item.key === 'u1' ? 'first' : 'other'}:${item.status}`,
          ),
        ),
      ].sort(),
    ],
    limit: 50_000,
  })

  test('refuses unsupported and oversized files before any request, in the server’s words', () => {
    expect(refusal({ name: 'a.exe', size: 1 }, 50)).toMatch(/not a supported file type/)
    expect(refusal({ name: 'big.pdf', size: 60 * 1024 * 1024 }, 50)).toBe(
      'big.pdf is larger than the 50 MB limit',
    )
    expect(refusal({ name: 'ok.PDF', size: 10 }, 50)).toBeNull()
  })

  test(`uploads at most ${MAX_PARALLEL_UPLOADS} at once and follows processing files until ready`, async () => {
    const started: string[] = []
    const products: (number | null)[] = []
    const polls: number[][] = []
    const actor = createActor(
      uploadQueueMachine.provide({
        actors: {
          uploadFile: fromCallback<UploadQueueEvents, UploadInput>(({ input }) => {
            started.push(input.key)
            products.push(input.productId)
          }),
          pollFiles: fromPromise<PollOutput, PollInput>(async ({ input }) => {
            polls.push(input.ids)
            return input.ids.map((id) => ({
              id,
              status: 'ready' as const,
              progress: 100,
              error: null,
            }))
          }),
        },
        delays: { pollInterval: 5 },
      }),
      { input: { maxUploadMb: 50 } },
    )
    actor.start()
    actor.send({ type: 'product.choose', productId: 5 })
    actor.send({
      type: 'files.add',
      files: [1, 2, 3, 4].map((n) => ({ name: `f${n}.pdf`, size: 10 })),
    })
    expect(started).toEqual(['u1', 'u2', 'u3'])
    actor.send({ type: 'upload.done', key: 'u1', file: file(7, 'processing') })
    expect(started).toEqual(['u1', 'u2', 'u3', 'u4'])
    expect(products).toEqual([5, 5, 5, 5])
    expect(actor.getSnapshot().value).toBe('watching')
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(polls[0]).toEqual([7])
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ status: 'ready', progress: 100 })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(FILE_STATUS_POLL_MS).toBe(1_500)
  })

  test('a file whose name is already there becomes its new version: the row and an event say so', () => {
    const versioned: unknown[] = []
    const actor = createActor(
      uploadQueueMachine.provide({
        actors: {
          uploadFile: fromCallback<UploadQueueEvents, UploadInput>(() => {}),
          pollFiles: fromPromise<PollOutput, PollInput>(() => new Promise(() => {})),
        },
      }),
      { input: { maxUploadMb: 50 } },
    ).start()
    actor.on('versioned', (event) => versioned.push(event))
    actor.send({
      type: 'files.add',
      files: [
        { name: 'policy.pdf', size: 10 },
        { name: 'same.pdf', size: 10 },
        { name: 'new.pdf', size: 10 },
      ],
    })
    const as = (name: string, version: number, new_version: boolean, unchanged: boolean) => ({
      ...file(1, 'ready'),
      name,
      version,
      new_version,
      unchanged,
    })
    actor.send({ type: 'upload.done', key: 'u1', file: as('policy.pdf', 3, true, false) })
    actor.send({ type: 'upload.done', key: 'u2', file: as('same.pdf', 2, false, true) })
    actor.send({ type: 'upload.done', key: 'u3', file: as('new.pdf', 1, false, false) })
    expect(
      actor.getSnapshot().context.items.map((item) => [item.newVersion, item.unchanged]),
    ).toEqual([
      [3, false],
      [2, true],
      [null, false],
    ])
    expect(versioned).toEqual([
      { type: 'versioned', name: 'policy.pdf', version: 3, unchanged: false },
      { type: 'versioned', name: 'same.pdf', version: 2, unchanged: true },
    ])
  })
})
