import { describe, expect, test, vi } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { FileDetails, FilePassage } from '../../contract/file-page.ts'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import type { Paged } from '../../contract/paging.ts'
import { FILE_PAGE_POLL_MS } from '../../machines/constants.ts'
import * as view from '../../machines/file-page/index.ts'
import {
  filePageMachine,
  filePageView,
  PASSAGES_PAGE_SIZE,
  type PassagesInput,
} from '../../machines/file-page/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const fileOf = (status: RepositoryFile['status']): RepositoryFile => ({
  id: 7,
  name: 'Policy.pdf',
  kind: 'pdf',
  mime: 'application/pdf',
  size: 2048,
  tags: [],
  status,
  progress: status === 'ready' ? 100 : 0,
  error: null,
  source_url: null,
  pages: 2,
  passages: 3,
  added_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  processed_at: null,
  version: 1,
})
const detailsOf = (status: RepositoryFile['status']): FileDetails => ({
  file: fileOf(status),
  history: [{ status, version: 1, error: null, at: '2026-01-01T00:00:00.000Z' }],
  versions: [],
  answers: [],
  answers_count: 0,
  items: [],
})
const read: Paged<FilePassage> = {
  count: 45,
  results: [
    { id: 1, ordinal: 0, text: 'Access.', location: { page: 1 }, question: null, answer: null },
  ],
}

const pending = pendingActors(filePageMachine)
const at = (kind: 'done' | 'error', state: string) => `xstate.${kind}.actor.0.filePage.${state}`
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'page.change', page: 2 },
  { type: at('done', 'file.loading'), output: detailsOf('processing') },
  { type: at('done', 'file.loading'), output: detailsOf('ready') },
  { type: at('error', 'file.loading'), error: new Error('File not found') },
  { type: at('done', 'read.loading'), output: read },
  { type: at('error', 'read.loading'), error: new Error('Offline') },
]

describe('filePageMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.filePageView.loading(s)).toBe(s.hasTag('loading') && s.context.details === null)
    },
    input: { id: 7 },
    identity: (s) => [s.context.details?.file.status ?? null, s.context.page],
  })

  test('follows a processing file until it is ready, then reads what was read again', async () => {
    vi.useFakeTimers()
    try {
      const statuses: RepositoryFile['status'][] = ['processing', 'ready']
      const asked: PassagesInput[] = []
      const actor = createActor(
        filePageMachine.provide({
          actors: {
            loadDetails: fromPromise<FileDetails, { id: number }>(async () =>
              detailsOf(statuses.shift() ?? 'ready'),
            ),
            loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async ({ input }) => {
              asked.push(input)
              return read
            }),
          },
        }),
        { input: { id: 7 } },
      ).start()
      await vi.advanceTimersByTimeAsync(0)
      expect(filePageView.file(actor.getSnapshot())?.status).toBe('processing')
      expect(actor.getSnapshot().matches({ file: 'watching' })).toBe(true)
      await vi.advanceTimersByTimeAsync(FILE_PAGE_POLL_MS)
      expect(filePageView.file(actor.getSnapshot())?.status).toBe('ready')
      expect(asked).toHaveLength(2)
      expect(filePageView.pages(actor.getSnapshot())).toBe(Math.ceil(45 / PASSAGES_PAGE_SIZE))
      actor.send({ type: 'page.change', page: 3 })
      await vi.advanceTimersByTimeAsync(0)
      expect(asked.at(-1)).toEqual({ id: 7, page: 3, page_size: PASSAGES_PAGE_SIZE })
      expect(filePageView.page(actor.getSnapshot())).toBe(3)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  test('a source cited at a page opens the list there once, then pages as asked (issue 30)', async () => {
    const asked: PassagesInput[] = []
    const actor = createActor(
      filePageMachine.provide({
        actors: {
          loadDetails: fromPromise<FileDetails, { id: number }>(async () => detailsOf('ready')),
          loadPassages: fromPromise<Paged<FilePassage> & { page?: number }, PassagesInput>(
            async ({ input }) => {
              asked.push(input)
              return { ...read, page: input.at_page ? 3 : input.page }
            },
          ),
        },
      }),
      { input: { id: 7, citedPage: 12 } },
    ).start()
    await vi.waitFor(() => expect(filePageView.reading(actor.getSnapshot())).toBe(false))
    expect(asked[0]).toMatchObject({ id: 7, at_page: 12 })
    expect(filePageView.page(actor.getSnapshot())).toBe(3)
    expect(filePageView.citedPage(actor.getSnapshot())).toBe(12)
    actor.send({ type: 'page.change', page: 4 })
    await vi.waitFor(() => expect(asked).toHaveLength(2))
    expect(asked[1]).toEqual({ id: 7, page: 4, page_size: 20 })
  })

  test('another organisation’s file says it was not found, and can be retried', async () => {
    const actor = createActor(
      filePageMachine.provide({
        actors: {
          loadDetails: fromPromise<FileDetails, { id: number }>(async () => {
            throw new Error('File not found')
          }),
          loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async () => {
            throw new Error('File not found')
          }),
        },
      }),
      { input: { id: 7 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(filePageView.error(actor.getSnapshot())).toBe('File not found')
    expect(filePageView.readError(actor.getSnapshot())).toBe('File not found')
    expect(filePageView.file(actor.getSnapshot())).toBeNull()
  })
})
