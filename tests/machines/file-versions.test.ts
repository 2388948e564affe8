import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { FileVersion, UploadedFile } from '../../contract/knowledge.ts'
import * as view from '../../machines/file-versions/index.ts'
import {
  fileVersionsMachine,
  fileVersionsView,
  type ReplaceInput,
} from '../../machines/file-versions/index.ts'
import { repositoryFileOf } from '../fixtures/repository-files.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const version = (n: number, current = false): FileVersion => ({
  version: n,
  name: 'policy.pdf',
  kind: 'pdf',
  mime: 'application/pdf',
  size_bytes: 1000 + n,
  sha256: null,
  created_at: '2026-01-01T00:00:00Z',
  created_by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  current,
})

const uploaded = (n: number, unchanged = false): UploadedFile => ({
  ...repositoryFileOf({
    id: 7,
    name: 'policy.pdf',
    size: 10,
    status: 'queued',
    pages: null,
    passages: 0,
    added_by: null,
    version: n,
  }),
  new_version: !unchanged,
  unchanged,
})

const pending = pendingActors(fileVersionsMachine)
const at = (kind: 'done' | 'error', state: string) => `xstate.${kind}.actor.0.fileVersions.${state}`
const file = { id: 7, name: 'policy.pdf' }
const events: AnyEventObject[] = [
  { type: 'history.open', file },
  { type: 'close' },
  { type: 'retry' },
  { type: 'replace.choose', file },
  { type: 'replace.pick', source: { name: 'policy v2.pdf', size: 100 } },
  { type: 'replace.pick', source: { name: 'virus.exe', size: 100 } },
  { type: at('done', 'history.loading'), output: [version(2, true), version(1)] },
  { type: at('error', 'history.loading'), error: new Error('offline') },
  { type: at('done', 'replacing'), output: uploaded(3) },
  { type: at('error', 'replacing'), error: new Error('Not yours') },
]

describe('fileVersionsMachine', () => {
  testEveryPath(pending, events, {
    view,
    // only the failed state shows its error; a retry keeps it in the context, hidden
    assertState: (s) => {
      if (s.matches({ history: 'failed' }))
        expect(view.fileVersionsView.error(s)).toEqual(expect.any(String))
      else expect(view.fileVersionsView.error(s)).toBeNull()
    },
    identity: (s) => [Boolean(s.context.target), Boolean(s.context.error)],
  })

  test('opens a file’s history, newest first, and closes it', async () => {
    const asked: number[] = []
    const actor = createActor(
      fileVersionsMachine.provide({
        actors: {
          loadVersions: fromPromise<FileVersion[], { id: number }>(async ({ input }) => {
            asked.push(input.id)
            return [version(2, true), version(1)]
          }),
        },
      }),
      { input: { maxUploadMb: 50 } },
    ).start()
    actor.send({ type: 'history.open', file })
    expect(fileVersionsView.loading(actor.getSnapshot())).toBe(true)
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toEqual([7])
    expect(fileVersionsView.open(actor.getSnapshot())).toBe(true)
    expect(fileVersionsView.versions(actor.getSnapshot()).map((v) => v.version)).toEqual([2, 1])
    actor.send({ type: 'close' })
    expect(fileVersionsView.open(actor.getSnapshot())).toBe(false)
    expect(actor.getSnapshot().context.file).toBeNull()
  })

  test('replaces the chosen file with the picked one and says which version it made', async () => {
    const sent: ReplaceInput[] = []
    const emitted: unknown[] = []
    const actor = createActor(
      fileVersionsMachine.provide({
        actors: {
          replaceFile: fromPromise<UploadedFile, ReplaceInput>(async ({ input }) => {
            sent.push(input)
            return uploaded(3)
          }),
        },
      }),
      { input: { maxUploadMb: 50 } },
    ).start()
    actor.on('*', (event) => emitted.push(event))
    // a pick without a chosen file does nothing
    actor.send({ type: 'replace.pick', source: { name: 'a.pdf', size: 1 } })
    expect(actor.getSnapshot().value).toBe('idle')
    actor.send({ type: 'replace.choose', file })
    actor.send({ type: 'replace.pick', source: { name: 'bad.exe', size: 1 } })
    expect(emitted).toEqual([{ type: 'failed', error: expect.stringMatching(/not a supported/) }])
    actor.send({ type: 'replace.choose', file })
    actor.send({ type: 'replace.pick', source: { name: 'policy v2.pdf', size: 5 } })
    expect(fileVersionsView.replacing(actor.getSnapshot())).toBe(true)
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual([{ id: 7, source: { name: 'policy v2.pdf', size: 5 } }])
    expect(emitted.at(-1)).toEqual({
      type: 'replaced',
      name: 'policy.pdf',
      version: 3,
      unchanged: false,
    })
    expect(actor.getSnapshot().context.target).toBeNull()
  })
})
