import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import {
  DEFAULT_MAX_UPLOAD_MB,
  type FileVersion,
  type UploadedFile,
} from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { thrownBy } from '../shared-actions.ts'
import { refusal, type UploadSource } from '../upload-queue/index.ts'
import type {
  FileVersionsContext,
  FileVersionsEmitted,
  FileVersionsEvents,
  ReplaceInput,
  VersionedFile,
} from './file-versions.types.ts'

export type * from './file-versions.types.ts'

/**
 * A repository file's versions (issue 28): its history in a dialog (every version, newest first,
 * each downloadable), and "Replace…": the row's file is chosen (`replace.choose`), then the picked
 * file (`replace.pick`) is checked like an upload and sent as the file's next version. The answer
 * is emitted (`replaced`: the version it made, or `unchanged`) for a toast and a fresh list.
 */

const mustBeProvided = mustBeProvidedIn('fileVersionsMachine')
const errorOf = (error: unknown) => errorMessage(error, 'Something went wrong. Please try again.')

export const fileVersionsMachine = setup({
  types: {
    context: {} as FileVersionsContext,
    events: {} as FileVersionsEvents,
    emitted: {} as FileVersionsEmitted,
    input: {} as { maxUploadMb?: number } | undefined,
  },
  actors: {
    loadVersions: fromPromise<FileVersion[], { id: number }>(mustBeProvided('loadVersions')),
    replaceFile: fromPromise<UploadedFile, ReplaceInput>(mustBeProvided('replaceFile')),
  },
  guards: {
    hasTarget: ({ context }) => context.target !== null,
    refused: ({ context }, source: UploadSource) => refusal(source, context.maxUploadMb) !== null,
  },
  actions: {
    setFile: assign((_, file: VersionedFile) => ({ file, versions: [], error: null })),
    forgetFile: assign({ file: null, versions: [], error: null }),
    setVersions: assign((_, versions: FileVersion[]) => ({ versions, error: null })),
    setError: assign(({ event }) => ({ error: errorOf(thrownBy(event)) })),
    setTarget: assign((_, file: VersionedFile) => ({ target: file })),
    setSource: assign((_, source: UploadSource) => ({ source })),
    forgetReplace: assign({ target: null, source: null }),
    refuse: emit(({ context }, source: UploadSource) => ({
      type: 'failed' as const,
      error: refusal(source, context.maxUploadMb) ?? '',
    })),
    announceReplaced: emit((_, file: UploadedFile) => ({
      type: 'replaced' as const,
      name: file.name,
      version: file.version,
      unchanged: file.unchanged,
    })),
    announceFailure: emit(({ event }) => ({
      type: 'failed' as const,
      error: errorOf(thrownBy(event)),
    })),
  },
}).createMachine({
  id: 'fileVersions',
  context: ({ input }) => ({
    file: null,
    versions: [],
    error: null,
    target: null,
    source: null,
    maxUploadMb: input?.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'history.open': {
          target: 'history',
          actions: { type: 'setFile', params: ({ event }) => event.file },
        },
        'replace.choose': { actions: { type: 'setTarget', params: ({ event }) => event.file } },
        'replace.pick': [
          {
            guard: { type: 'refused', params: ({ event }) => event.source },
            actions: [{ type: 'refuse', params: ({ event }) => event.source }, 'forgetReplace'],
          },
          {
            guard: 'hasTarget',
            target: 'replacing',
            actions: { type: 'setSource', params: ({ event }) => event.source },
          },
        ],
      },
    },
    history: {
      description: 'The history dialog of one file is open.',
      initial: 'loading',
      on: { close: { target: 'idle', actions: 'forgetFile' } },
      states: {
        loading: {
          tags: 'loading',
          invoke: {
            src: 'loadVersions',
            input: ({ context }) => ({ id: context.file?.id ?? 0 }),
            onDone: {
              target: 'ready',
              actions: { type: 'setVersions', params: ({ event }) => event.output },
            },
            onError: { target: 'failed', actions: 'setError' },
          },
        },
        ready: {},
        failed: { on: { retry: 'loading' } },
      },
    },
    replacing: {
      description: 'A new version of the chosen file is being sent.',
      tags: 'busy',
      invoke: {
        src: 'replaceFile',
        input: ({ context }) => ({
          id: context.target?.id ?? 0,
          source: context.source ?? { name: '', size: 0 },
        }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'announceReplaced', params: ({ event }) => event.output },
            'forgetReplace',
          ],
        },
        onError: { target: 'idle', actions: ['announceFailure', 'forgetReplace'] },
      },
    },
  },
})
