import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import * as view from '../../machines/file-list/index.ts'
import {
  type FileAction,
  type FileQuery,
  fileListMachine,
  type ListOutput,
} from '../../machines/file-list/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const file = (id: number, status: RepositoryFile['status']) =>
  ({ id, name: `f${id}.pdf`, status, progress: 0 }) as RepositoryFile

const pending = pendingActors(fileListMachine)

const list = (status: RepositoryFile['status']) => ({ count: 1, results: [file(1, status)] })
const done = (state: string, output: unknown) => ({
  type: `xstate.done.actor.0.fileList.${state}`,
  output,
})
const fail = (state: string) => ({
  type: `xstate.error.actor.0.fileList.${state}`,
  error: new Error('Server down'),
})

const events: AnyEventObject[] = [
  { type: 'search.change', q: 'soc' },
  { type: 'filter.change', filter: { kind: 'pdf' } },
  { type: 'page.change', page: 2 },
  { type: 'refresh' },
  { type: 'select.toggle', id: 1 },
  { type: 'select.all' },
  { type: 'select.clear' },
  { type: 'delete.request', ids: [1] },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'action', action: { kind: 'reprocess', id: 1 } },
  { type: 'tags.edit', file: { id: 1, name: 'f1.pdf', tags: ['a'] } },
  { type: 'tags.change', text: 'a, b' },
  { type: 'tags.save' },
  { type: 'tags.cancel' },
  done('loading', list('ready')),
  done('loading', list('processing')),
  fail('loading'),
  done('refreshing', list('ready')),
  fail('refreshing'),
  done('deleting', 1),
  fail('deleting'),
  done('acting', undefined),
  fail('acting'),
]

describe('fileListMachine', () => {
  testEveryPath(pending, events, {
    view,
    // about 3.5 s alone: more than a test's default 5 s when the suite shares two cores
    timeoutMs: 30_000,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.selectIsLoading(s)).toBe(s.hasTag('loading') && !s.context.loaded)
    },
    identity: (s) => [
      s.context.files.map((f) => f.status),
      s.context.selected.length > 0,
      s.context.pendingDelete.length > 0,
      s.context.query.page > 1,
      Boolean(s.context.query.q),
      Boolean(s.context.query.kind),
      s.context.tagging?.text ?? null,
    ],
    limit: 50_000,
  })

  test('deletes the selection after confirmation and reloads', async () => {
    const deleted: number[][] = []
    const actor = createActor(
      fileListMachine.provide({
        actors: {
          loadFiles: fromPromise<ListOutput, FileQuery>(async () => ({
            count: 2,
            results: [file(1, 'ready'), file(2, 'ready')],
          })),
          deleteFiles: fromPromise<number, { ids: number[] }>(async ({ input }) => {
            deleted.push(input.ids)
            return input.ids.length
          }),
        },
      }),
    )
    const emitted: string[] = []
    actor.on('deleted', (event) => emitted.push(`deleted ${event.count}`))
    actor.start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'select.all' })
    actor.send({ type: 'delete.request', ids: actor.getSnapshot().context.selected })
    expect(actor.getSnapshot().value).toBe('confirming')
    actor.send({ type: 'delete.confirm' })
    await new Promise((r) => setTimeout(r, 0))
    expect(deleted).toEqual([[1, 2]])
    expect(emitted).toEqual(['deleted 2'])
  })
  test('edits one file’s tags and saves them as a row action', async () => {
    const actions: FileAction[] = []
    const actor = createActor(
      fileListMachine.provide({
        actors: {
          loadFiles: fromPromise<ListOutput, FileQuery>(async () => list('ready')),
          runAction: fromPromise<void, FileAction>(async ({ input }) => {
            actions.push(input)
          }),
        },
      }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'tags.save' })
    expect(actions).toEqual([])
    actor.send({ type: 'tags.edit', file: { id: 1, name: 'f1.pdf', tags: ['policies'] } })
    expect(actor.getSnapshot().context.tagging).toEqual({
      id: 1,
      name: 'f1.pdf',
      text: 'policies',
    })
    actor.send({ type: 'tags.change', text: ' policies, SOC 2 ,, ' })
    actor.send({ type: 'tags.save' })
    expect(actor.getSnapshot().context.tagging).toBeNull()
    await new Promise((r) => setTimeout(r, 0))
    expect(actions).toEqual([{ kind: 'tags', id: 1, tags: ['policies', 'SOC 2'] }])
    actor.send({ type: 'tags.edit', file: { id: 1, name: 'f1.pdf', tags: [] } })
    actor.send({ type: 'tags.cancel' })
    expect(actor.getSnapshot().context.tagging).toBeNull()
  })
})
