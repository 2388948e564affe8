import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import * as view from '../../machines/library-health/index.ts'
import { libraryHealthMachine, libraryHealthView } from '../../machines/library-health/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(libraryHealthMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.libraryHealth.loading`
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: 'retry' },
  { type: 'groups.toggle' },
  { type: 'groups.show' },
  { type: 'note.toggle' },
  {
    type: at('done'),
    output: { groups: [], counts: { stale: 1, due: 0, source_changed: 0, conflicts: 0 } },
  },
  { type: at('error'), error: new Error('offline') },
]

describe('libraryHealthMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [Boolean(s.context.error), s.context.open, s.context.note],
    assertState: (s) => {
      if (s.matches('failed')) expect(s.context.error).toEqual(expect.any(String))
      if (s.matches('ready')) {
        expect(s.context.error).toBeNull()
        expect(view.libraryHealthView.counts(s)).toBe(s.context.health?.counts)
      }
    },
  })

  test('keeps the groups it loaded', async () => {
    const health: LibraryHealth = {
      counts: { stale: 2, due: 1, source_changed: 3, conflicts: 1 },
      groups: [
        {
          kind: 'conflict',
          items: [
            {
              id: 1,
              source: 'qa',
              question: 'Q',
              answer: 'Yes',
              dropdown_value: 'Yes',
              updated_at: '',
              file_id: null,
              file_name: null,
              dated_at: '2026-03-01T10:00:00.000Z',
              newest: true,
            },
            {
              id: 2,
              source: 'file',
              question: 'Q',
              answer: 'No',
              dropdown_value: null,
              updated_at: null,
              file_id: 4,
              file_name: 'Completed.xlsx',
              dated_at: '2025-03-01T10:00:00.000Z',
              newest: false,
            },
          ],
        },
      ],
    }
    const actor = createActor(
      libraryHealthMachine.provide({ actors: { loadHealth: fromPromise(async () => health) } }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.health).toEqual(health)
    expect(libraryHealthView.counts(actor.getSnapshot())).toEqual(health.counts)
    actor.send({ type: 'groups.show' })
    expect(libraryHealthView.open(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'groups.toggle' })
    expect(libraryHealthView.open(actor.getSnapshot())).toBe(false)
  })
})
