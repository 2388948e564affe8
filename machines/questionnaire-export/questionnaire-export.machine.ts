import { assign, emit, fromPromise, setup } from 'xstate'
import type { CheckFilledFile, ExportFormat, FilledFile } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * Exports of a questionnaire: it checks whether the latest filled file is still current, writes a
 * new one (into the original file, or as a basic XLSX or CSV table) and downloads it; the latest
 * one can be downloaded again. Failures keep the last good state and offer a retry. It is told
 * the questionnaire's revision as it changes, and checks the latest file again on each new one.
 */

export interface ExportContext {
  id: number
  latest: FilledFile | null
  format: ExportFormat | null
  error: string | null
  /** The questionnaire's revision last told, to check the latest file again when it changes. */
  revision: number | null
}

export type ExportEvents =
  | { type: 'refresh' }
  | { type: 'revision'; revision: number | null }
  | { type: 'export'; format: ExportFormat }
  | { type: 'download.latest' }
  | { type: 'retry' }
  | { type: 'dismiss' }

export type ExportEmitted =
  | { type: 'exported'; file: FilledFile }
  | { type: 'failed'; message: string }

const mustBeProvided = mustBeProvidedIn('questionnaireExportMachine')
const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'The export failed'

export const questionnaireExportMachine = setup({
  types: {
    context: {} as ExportContext,
    events: {} as ExportEvents,
    input: {} as { id: number },
    emitted: {} as ExportEmitted,
  },
  actors: {
    checkFilled: fromPromise<CheckFilledFile, { id: number }>(mustBeProvided('checkFilled')),
    exportFile: fromPromise<FilledFile, { id: number; format: ExportFormat }>(
      mustBeProvided('exportFile'),
    ),
    downloadFilled: fromPromise<void, { file: FilledFile }>(mustBeProvided('downloadFilled')),
  },
  guards: {
    retryExport: ({ context }) => context.format !== null,
    hasLatest: ({ context }) => context.latest !== null,
    newRevision: ({ context, event }) => {
      const { revision } = event as Extract<ExportEvents, { type: 'revision' }>
      return revision !== null && revision !== context.revision
    },
  },
  actions: {
    rememberRevision: assign(({ event }) => ({
      revision: (event as Extract<ExportEvents, { type: 'revision' }>).revision,
    })),
  },
}).createMachine({
  id: 'questionnaireExport',
  context: ({ input }) => ({
    id: input.id,
    latest: null,
    format: null,
    error: null,
    revision: null,
  }),
  initial: 'checking',
  // a revision told while busy is only remembered: it does not interrupt a check or an export
  on: { revision: { actions: 'rememberRevision' } },
  states: {
    checking: {
      invoke: {
        src: 'checkFilled',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'idle',
          actions: assign(({ event }) => ({ latest: event.output.filled_file })),
        },
        // not knowing about earlier exports does not stop a new one
        onError: 'idle',
      },
    },
    idle: {
      on: {
        refresh: 'checking',
        revision: { guard: 'newRevision', target: 'checking', actions: 'rememberRevision' },
        export: {
          target: 'exporting',
          actions: assign(({ event }) => ({ format: event.format, error: null })),
        },
        'download.latest': { guard: 'hasLatest', target: 'downloading' },
      },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'exportFile',
        input: ({ context }) => ({ id: context.id, format: context.format as ExportFormat }),
        onDone: {
          target: 'downloading',
          actions: [
            assign(({ event }) => ({ latest: event.output })),
            emit(({ event }) => ({ type: 'exported' as const, file: event.output })),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: messageOf(event.error) })),
            emit(({ event }) => ({ type: 'failed' as const, message: messageOf(event.error) })),
          ],
        },
      },
    },
    downloading: {
      tags: ['busy'],
      invoke: {
        src: 'downloadFilled',
        input: ({ context }) => ({ file: context.latest as FilledFile }),
        onDone: 'idle',
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: messageOf(event.error), format: null })),
            emit(({ event }) => ({ type: 'failed' as const, message: messageOf(event.error) })),
          ],
        },
      },
    },
    failed: {
      on: {
        retry: [
          { guard: 'retryExport', target: 'exporting', actions: assign({ error: null }) },
          { target: 'downloading', actions: assign({ error: null }) },
        ],
        dismiss: { target: 'idle', actions: assign({ error: null }) },
        export: {
          target: 'exporting',
          actions: assign(({ event }) => ({ format: event.format, error: null })),
        },
      },
    },
  },
})
