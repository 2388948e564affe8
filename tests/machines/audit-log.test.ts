import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { AuditEvent } from '../../contract/organization.ts'
import * as view from '../../machines/audit-log/index.ts'
import { type AuditQuery, auditLogMachine } from '../../machines/audit-log/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const event: AuditEvent = {
  id: 'a',
  action: 'user.removed',
  label: 'Removed',
  summary: 'Ana Admin removed bob@acme.test',
  actor: { id: 1, email: 'admin@acme.test', name: 'Ana Admin' },
  object: 'bob@acme.test',
  target: 'user:2',
  detail: {},
  created_at: '2026-11-26T00:00:00.000Z',
}
const pending = pendingActors(auditLogMachine)
const events: AnyEventObject[] = [
  { type: 'action.change', action: 'user.' },
  { type: 'page.change', page: 2 },
  { type: 'refresh' },
  { type: 'download' },
  { type: 'xstate.done.actor.loadAudit', output: { count: 1, results: [event] } },
  { type: 'xstate.error.actor.loadAudit', error: new Error('offline') },
  { type: 'xstate.done.actor.downloadAudit' },
  { type: 'xstate.error.actor.downloadAudit', error: new Error('offline') },
]

describe('auditLogMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.auditLogView.loading(s)).toBe(
        s.hasTag('loading') && view.auditLogView.events(s).length === 0,
      )
    },
  })

  test('filters by kind from the first page, and downloads the filtered log', async () => {
    const loads: AuditQuery[] = []
    const downloads: AuditQuery[] = []
    const actor = createActor(
      auditLogMachine.provide({
        actors: {
          loadAudit: fromPromise<{ count: number; results: AuditEvent[] }, AuditQuery>(
            async ({ input }) => {
              loads.push(input)
              return { count: 60, results: [event] }
            },
          ),
          downloadAudit: fromPromise<void, AuditQuery>(async ({ input }) => {
            downloads.push(input)
          }),
        },
      }),
    ).start()
    const settle = () => new Promise((r) => setTimeout(r, 0))
    await settle()
    actor.send({ type: 'page.change', page: 2 })
    await settle()
    actor.send({ type: 'action.change', action: 'user.' })
    await settle()
    actor.send({ type: 'download' })
    await settle()
    expect(loads.map((q) => [q.page, q.action])).toEqual([
      [1, ''],
      [2, ''],
      [1, 'user.'],
    ])
    expect(downloads).toEqual([{ page: 1, page_size: 25, action: 'user.' }])
  })
})
