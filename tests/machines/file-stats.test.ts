import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { FileStats } from '../../contract/knowledge.ts'
import * as view from '../../machines/file-stats/index.ts'
import { fileStatsMachine } from '../../machines/file-stats/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const stats = { total: { count: 3, bytes: 2048 }, max_repository: 100 } as FileStats
const pending = pendingActors(fileStatsMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.fileStats.loading`
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: at('done'), output: stats },
  { type: at('error'), error: new Error('offline') },
]

describe('fileStatsMachine', () => {
  testEveryPath(pending, events, { view, identity: (s) => [s.context.stats !== null] })

  test('loads on start, reloads on refresh and keeps the last figures when a load fails', async () => {
    let calls = 0
    const actor = createActor(
      fileStatsMachine.provide({
        actors: {
          loadStats: fromPromise<FileStats, void>(async () => {
            calls += 1
            if (calls === 2) throw new Error('offline')
            return { ...stats, total: { count: calls, bytes: 0 } }
          }),
        },
      }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.stats?.total.count).toBe(1)
    actor.send({ type: 'refresh' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().value).toBe('ready')
    expect(actor.getSnapshot().context.stats?.total.count).toBe(1)
    actor.send({ type: 'refresh' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.stats?.total.count).toBe(3)
  })
})
