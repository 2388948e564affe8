import { describe, expect, test } from 'vitest'
import { createActor } from 'xstate'
import {
  type ColumnMappingEvents,
  columnMappingMachine,
  emptyMapping,
} from '../../machines/column-mapping/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

const events: ColumnMappingEvents[] = [
  { type: 'header.set', value: '3' },
  { type: 'header.set', value: '-2' },
  { type: 'column.set', column: 'question_column', value: '2' },
  { type: 'column.set', column: 'answer_column', value: '' },
]

describe('columnMappingMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(columnMappingMachine, {
      input: { mapping: null },
      events,
      serializeState: (s) => JSON.stringify([s.value, s.context.mapping]),
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test("starts from the tab's mapping, or the first guess without one", () => {
    const mapping = { ...emptyMapping(), header_row: 4, question_column: 2 }
    expect(
      createActor(columnMappingMachine, { input: { mapping } }).start().getSnapshot().context
        .mapping,
    ).toEqual(mapping)
    expect(
      createActor(columnMappingMachine, { input: { mapping: null } })
        .start()
        .getSnapshot().context.mapping,
    ).toEqual(emptyMapping())
  })

  test('follows the header row and the columns chosen', () => {
    const actor = createActor(columnMappingMachine, { input: { mapping: null } }).start()
    actor.send({ type: 'header.set', value: 'x' })
    expect(actor.getSnapshot().context.mapping.header_row).toBe(0)
    actor.send({ type: 'header.set', value: '-5' })
    expect(actor.getSnapshot().context.mapping.header_row).toBe(0)
    actor.send({ type: 'header.set', value: '7' })
    actor.send({ type: 'column.set', column: 'comment_column', value: '3' })
    actor.send({ type: 'column.set', column: 'answer_column', value: '' })
    expect(actor.getSnapshot().context.mapping).toEqual({
      ...emptyMapping(),
      header_row: 7,
      comment_column: 3,
      answer_column: null,
    })
  })
})
