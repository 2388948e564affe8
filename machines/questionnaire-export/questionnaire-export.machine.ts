import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import { type ExportFormat, QUESTIONNAIRE_TEXTS } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { EXPORT_PROGRESS_POLL_MS } from '../constants.ts'
import { failureText, outputOf } from '../shared-actions.ts'
import type {
  CheckFilledFile,
  ExportRun,
  ExportSchema,
  FilledFile,
  StartExportInput,
} from './questionnaire-export.types.ts'

/**
 * Exports of a questionnaire: it checks whether the latest filled file is still current, writes a
 * new one (into the original file, or as a basic XLSX or CSV table) and downloads it; the latest
 * one can be downloaded again. The file is written by a job (issue 37): starting an export gives
 * a run, which is asked for again every EXPORT_POLL, its progress shown, until its file is written
 * (then downloaded) or it failed. Failures keep the last good state and offer a retry; a retry
 * while the run is unfinished asks for it again rather than starting another. It is told the
 * questionnaire's revision as it changes, and checks the latest file again on each new one.
 */

const mustBeProvided = mustBeProvidedIn('questionnaireExportMachine')
const unfinished = (run: ExportRun | null) => run?.status === 'queued' || run?.status === 'running'

/**
 * The run that starting an export or asking for it answered, read from the done event by name:
 * the exporting and polling states settle it alike, each in a few lines.
 */
const runOf = (event: object) => outputOf(event) as ExportRun

/** A failed call's error, in its own words or the export's. */
const failureOf = (event: object) => failureText(event, QUESTIONNAIRE_TEXTS.exportFailedPlain)

export const questionnaireExportMachine = setup({
  types: {} as ExportSchema,
  actors: {
    checkFilled: fromPromise<CheckFilledFile, { id: number }>(mustBeProvided('checkFilled')),
    /** Starts an export: the run, queued (POST export-original/ or export-basic/). */
    startExport: fromPromise<ExportRun, StartExportInput>(mustBeProvided('startExport')),
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
    newRevision: ({ context }, revision: number | null) =>
      revision !== null && revision !== context.revision,
    runDone: ({ event }) => {
      const run = runOf(event)
      return run.status === 'done' && run.filled_file !== null
    },
    runFailed: ({ event }) => runOf(event).status === 'failed',
  },
  actions: {
    rememberRevision: assign((_, revision: number | null) => ({ revision })),
    setChecked: assign((_, checked: CheckFilledFile) => ({
      latest: checked.filled_file,
      approvedOnlyDefault: checked.approved_only_default ?? false,
    })),
    keepRun: assign(({ event }) => {
      const run = runOf(event)
      return run.status === 'done'
        ? { run, latest: run.filled_file }
        : run.status === 'failed'
          ? { run, error: run.error ?? QUESTIONNAIRE_TEXTS.exportFailedPlain }
          : { run }
    }),
    announceDone: enqueueActions(({ self, event, enqueue }) => {
      const file = runOf(event).filled_file as FilledFile
      enqueue.emit({ type: 'exported', file })
      // the workspace that runs it says so (alone, as in its path test, it only emits)
      if (self._parent) enqueue.sendParent({ type: 'export.done', fileName: file.name })
    }),
    announceRunFailed: enqueueActions(({ self, event, enqueue }) => {
      const message = runOf(event).error ?? QUESTIONNAIRE_TEXTS.exportFailedPlain
      enqueue.emit({ type: 'failed', message })
      if (self._parent) enqueue.sendParent({ type: 'export.failed', message })
    }),
    rememberError: assign(({ event }) => ({ error: failureOf(event) })),
    announceError: enqueueActions(({ self, event, enqueue }) => {
      const message = failureOf(event)
      enqueue.emit({ type: 'failed', message })
      if (self._parent) enqueue.sendParent({ type: 'export.failed', message })
    }),
    forgetExport: assign(({ event }) => ({
      error: failureOf(event),
      format: null,
      run: null,
    })),
    begin: assign((_, asked: { format: ExportFormat; approvedOnly?: boolean }) => ({
      format: asked.format,
      approvedOnly: asked.approvedOnly ?? null,
      run: null,
      error: null,
    })),
    clearError: assign({ error: null }),
    clearRun: assign({ error: null, run: null }),
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
  on: {
    revision: {
      description:
        'A revision told while busy is only remembered: it does not interrupt a check or an export.',
      actions: { type: 'rememberRevision', params: ({ event }) => event.revision },
    },
  },
  states: {
    checking: {
      description:
        'Whether the latest filled file is still current, and the default for approved answers.',
      invoke: {
        src: 'checkFilled',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'idle',
          actions: { type: 'setChecked', params: ({ event }) => event.output },
        },
        // not knowing about earlier exports does not stop a new one
        onError: 'idle',
      },
    },
    idle: {
      description: 'The Export menu: a new export, or the latest file downloaded again.',
      on: {
        refresh: 'checking',
        revision: {
          guard: { type: 'newRevision', params: ({ event }) => event.revision },
          target: 'checking',
          actions: { type: 'rememberRevision', params: ({ event }) => event.revision },
        },
        export: { target: 'exporting', actions: { type: 'begin', params: ({ event }) => event } },
        'download.latest': { guard: 'hasLatest', target: 'downloading' },
      },
    },
    exporting: {
      description: 'The export is started: the server answers with its run, queued.',
      tags: ['busy'],
      invoke: {
        src: 'startExport',
        input: ({ context }) => ({
          id: context.id,
          format: context.format as ExportFormat,
          approvedOnly: context.approvedOnly,
        }),
        onDone: [
          { guard: 'runDone', target: 'downloading', actions: ['keepRun', 'announceDone'] },
          { guard: 'runFailed', target: 'failed', actions: ['keepRun', 'announceRunFailed'] },
          { target: 'waiting', actions: 'keepRun' },
        ],
        onError: { target: 'failed', actions: ['rememberError', 'announceError'] },
      },
    },
    waiting: {
      description: 'The run is queued or running: it is asked for again after EXPORT_POLL.',
      tags: ['busy'],
      after: { EXPORT_POLL: 'polling' },
    },
    polling: {
      description: 'The run as it is now: done (download its file), failed, or not yet.',
      tags: ['busy'],
      invoke: {
        src: 'loadExport',
        input: ({ context }) => ({ runId: (context.run as ExportRun).id }),
        onDone: [
          { guard: 'runDone', target: 'downloading', actions: ['keepRun', 'announceDone'] },
          { guard: 'runFailed', target: 'failed', actions: ['keepRun', 'announceRunFailed'] },
          { target: 'waiting', actions: 'keepRun' },
        ],
        onError: { target: 'failed', actions: ['rememberError', 'announceError'] },
      },
    },
    downloading: {
      description: 'The filled file is downloaded.',
      tags: ['busy'],
      invoke: {
        src: 'downloadFilled',
        input: ({ context }) => ({ file: context.latest as FilledFile }),
        onDone: 'idle',
        onError: { target: 'failed', actions: ['forgetExport', 'announceError'] },
      },
    },
    failed: {
      description:
        'Why the export failed, with a retry: the unfinished run is asked for again, else the export or the download starts again.',
      on: {
        retry: [
          { guard: 'runUnfinished', target: 'polling', actions: 'clearError' },
          { guard: 'retryExport', target: 'exporting', actions: 'clearRun' },
          { target: 'downloading', actions: 'clearError' },
        ],
        dismiss: { target: 'idle', actions: 'clearError' },
        export: { target: 'exporting', actions: { type: 'begin', params: ({ event }) => event } },
      },
    },
  },
})
