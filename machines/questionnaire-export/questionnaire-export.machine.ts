import { assign, emit, fromPromise, setup } from 'xstate'
import type {
  CheckFilledFile,
  ExportFormat,
  ExportRun,
  FilledFile,
} from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { EXPORT_PROGRESS_POLL_MS } from '../constants.ts'

/**
 * Exports of a questionnaire: it checks whether the latest filled file is still current, writes a
 * new one (into the original file, or as a basic XLSX or CSV table) and downloads it; the latest
 * one can be downloaded again. The file is written by a job (issue 37): starting an export gives
 * a run, which is asked for again every EXPORT_POLL, its progress shown, until its file is written
 * (then downloaded) or it failed. Failures keep the last good state and offer a retry; a retry
 * while the run is unfinished asks for it again rather than starting another. It is told the
 * questionnaire's revision as it changes, and checks the latest file again on each new one.
 */

export interface ExportContext {
  id: number
  latest: FilledFile | null
  format: ExportFormat | null
  /** The export run being waited for (or the last one). */
  run: ExportRun | null
  error: string | null
  /** The questionnaire's revision last told, to check the latest file again when it changes. */
  revision: number | null
  /** Issue 39: the original is filled with approved answers only (null: the organisation's default). */
  approvedOnly: boolean | null
  /** Whether the organisation fills with approved answers only unless asked otherwise. */
  approvedOnlyDefault: boolean
}

export type ExportEvents =
  | { type: 'refresh' }
  | { type: 'revision'; revision: number | null }
  | { type: 'export'; format: ExportFormat; approvedOnly?: boolean }
  | { type: 'download.latest' }
  | { type: 'retry' }
  | { type: 'dismiss' }

export type ExportEmitted =
  | { type: 'exported'; file: FilledFile }
  | { type: 'failed'; message: string }

const mustBeProvided = mustBeProvidedIn('questionnaireExportMachine')
const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'The export failed'
const outputOf = (event: unknown) => (event as { output: ExportRun }).output
const unfinished = (run: ExportRun | null) => run?.status === 'queued' || run?.status === 'running'

/** What a run told: done (download its file), failed (say why), or not yet (ask again). */
const followRun = [
  { guard: 'runDone', target: 'downloading', actions: ['keepRun', 'announceDone'] },
  { guard: 'runFailed', target: 'failed', actions: ['keepRun', 'announceRunFailed'] },
  { target: 'waiting', actions: 'keepRun' },
] as const
const failWith = ['rememberError', 'announceError'] as const

export const questionnaireExportMachine = setup({
  types: {
    context: {} as ExportContext,
    events: {} as ExportEvents,
    input: {} as { id: number },
    emitted: {} as ExportEmitted,
  },
  actors: {
    checkFilled: fromPromise<CheckFilledFile, { id: number }>(mustBeProvided('checkFilled')),
    /** Starts an export: the run, queued (POST export-original/ or export-basic/). */
    startExport: fromPromise<
      ExportRun,
      { id: number; format: ExportFormat; approvedOnly: boolean | null }
    >(mustBeProvided('startExport')),
    /** The run as it is now (GET exports/{id}/). */
    loadExport: fromPromise<ExportRun, { runId: number }>(mustBeProvided('loadExport')),
    downloadFilled: fromPromise<void, { file: FilledFile }>(mustBeProvided('downloadFilled')),
  },
  delays: { EXPORT_POLL: EXPORT_PROGRESS_POLL_MS },
  guards: {
    retryExport: ({ context }) => context.format !== null,
    /** The run is still on its way: a retry asks for it again instead of starting another. */
    runUnfinished: ({ context }) => unfinished(context.run),
    hasLatest: ({ context }) => context.latest !== null,
    newRevision: ({ context, event }) => {
      const { revision } = event as Extract<ExportEvents, { type: 'revision' }>
      return revision !== null && revision !== context.revision
    },
    runDone: ({ event }) => {
      const run = outputOf(event)
      return run.status === 'done' && run.filled_file !== null
    },
    runFailed: ({ event }) => outputOf(event).status === 'failed',
  },
  actions: {
    rememberRevision: assign(({ event }) => ({
      revision: (event as Extract<ExportEvents, { type: 'revision' }>).revision,
    })),
    keepRun: assign(({ event }) => {
      const run = outputOf(event)
      return run.status === 'done'
        ? { run, latest: run.filled_file }
        : run.status === 'failed'
          ? { run, error: run.error ?? 'The export failed' }
          : { run }
    }),
    announceDone: emit(({ event }) => ({
      type: 'exported' as const,
      file: outputOf(event).filled_file as FilledFile,
    })),
    announceRunFailed: emit(({ event }) => ({
      type: 'failed' as const,
      message: outputOf(event).error ?? 'The export failed',
    })),
    rememberError: assign(({ event }) => ({
      error: messageOf((event as unknown as { error: unknown }).error),
    })),
    announceError: emit(({ event }) => ({
      type: 'failed' as const,
      message: messageOf((event as unknown as { error: unknown }).error),
    })),
    begin: assign(({ event }) => {
      const asked = event as Extract<ExportEvents, { type: 'export' }>
      return {
        format: asked.format,
        approvedOnly: asked.approvedOnly ?? null,
        run: null,
        error: null,
      }
    }),
  },
}).createMachine({
  id: 'questionnaireExport',
  context: ({ input }) => ({
    id: input.id,
    latest: null,
    format: null,
    run: null,
    error: null,
    revision: null,
    approvedOnly: null,
    approvedOnlyDefault: false,
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
          actions: assign(({ event }) => ({
            latest: event.output.filled_file,
            approvedOnlyDefault: event.output.approved_only_default ?? false,
          })),
        },
        // not knowing about earlier exports does not stop a new one
        onError: 'idle',
      },
    },
    idle: {
      on: {
        // another viewer's export finished (the live stream), or the page asks
        refresh: 'checking',
        revision: { guard: 'newRevision', target: 'checking', actions: 'rememberRevision' },
        export: { target: 'exporting', actions: 'begin' },
        'download.latest': { guard: 'hasLatest', target: 'downloading' },
      },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'startExport',
        input: ({ context }) => ({
          id: context.id,
          format: context.format as ExportFormat,
          approvedOnly: context.approvedOnly,
        }),
        onDone: [...followRun],
        onError: { target: 'failed', actions: [...failWith] },
      },
    },
    // the run is queued or running: asked for again after a pause
    waiting: {
      tags: ['busy'],
      after: { EXPORT_POLL: 'polling' },
    },
    polling: {
      tags: ['busy'],
      invoke: {
        src: 'loadExport',
        input: ({ context }) => ({ runId: (context.run as ExportRun).id }),
        onDone: [...followRun],
        onError: { target: 'failed', actions: [...failWith] },
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
            assign(({ event }) => ({ error: messageOf(event.error), format: null, run: null })),
            emit(({ event }) => ({ type: 'failed' as const, message: messageOf(event.error) })),
          ],
        },
      },
    },
    failed: {
      on: {
        retry: [
          { guard: 'runUnfinished', target: 'polling', actions: assign({ error: null }) },
          {
            guard: 'retryExport',
            target: 'exporting',
            actions: assign({ error: null, run: null }),
          },
          { target: 'downloading', actions: assign({ error: null }) },
        ],
        dismiss: { target: 'idle', actions: assign({ error: null }) },
        export: { target: 'exporting', actions: 'begin' },
      },
    },
  },
})
