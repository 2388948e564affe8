import { assign, setup } from 'xstate'
import type { TabMapping } from '../../contract/questionnaires.ts'

/**
 * The column mapping being corrected in the mapping dialog: it starts from the tab's mapping (or a
 * first guess when the tab has none) and follows the header row and the columns chosen. The
 * dialog submits the mapping it holds; the workspace re-analyses the questionnaire with it.
 */

/** The columns a mapping names; the question column is the one that must be set. */
export type MappingColumn = Exclude<keyof TabMapping, 'header_row'>

export interface ColumnMappingContext {
  mapping: TabMapping
}

export type ColumnMappingEvents =
  /** The header row as typed: a negative or unreadable number counts as 0. */
  | { type: 'header.set'; value: string }
  /** A column by its index as chosen, '' for none. */
  | { type: 'column.set'; column: MappingColumn; value: string }

/** The first guess for a tab without a mapping: questions in A, answers in B, headers in row 1. */
export const emptyMapping = (): TabMapping => ({
  header_row: 1,
  id_column: null,
  question_column: 0,
  answer_column: 1,
  comment_column: null,
  section_column: null,
})

export const columnMappingMachine = setup({
  types: {
    context: {} as ColumnMappingContext,
    events: {} as ColumnMappingEvents,
    input: {} as { mapping: TabMapping | null },
  },
}).createMachine({
  id: 'columnMapping',
  context: ({ input }) => ({ mapping: input.mapping ?? emptyMapping() }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'header.set': {
          actions: assign(({ context, event }) => ({
            mapping: { ...context.mapping, header_row: Math.max(0, Number(event.value) || 0) },
          })),
        },
        'column.set': {
          actions: assign(({ context, event }) => ({
            mapping: {
              ...context.mapping,
              [event.column]: event.value === '' ? null : Number(event.value),
            },
          })),
        },
      },
    },
  },
})
