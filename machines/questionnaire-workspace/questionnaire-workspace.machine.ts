import { assign, emit, enqueueActions, fromPromise, raise, setup } from 'xstate'
import type { Operation, Questionnaire, TabMapping } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { QUESTIONNAIRE_PROGRESS_POLL_MS } from '../constants.ts'
import { questionnaireLiveMachine } from '../questionnaire-live/index.ts'
import {
  adopted,
  isRunning,
  mappingsOf,
  mergeRows,
  messageOf,
  operationOf,
  optimistic,
  step,
} from './rows.ts'
import type {
  OperationResult,
  WorkspaceContext,
  WorkspaceData,
  WorkspaceEmitted,
  WorkspaceEvents,
  WorkspaceOperation,
} from './workspace.types.ts'

export * from './rows.ts'
export * from './workspace.types.ts'

/**
 * The review workspace of one questionnaire ('Questionnaire Automation'): it loads the
 * questionnaire, its tabs and every question; while the file is analysed (or answered) it follows
 * the progress; then it holds the chosen tab, the filter and the focused question, runs the
 * operations that change several rows (choosing a candidate, deleting a question, undo) one at a
 * time with the rows rolled back when the server refuses, and opens the history and the mapping
 * dialog. The license notice of spec section 2 shows once per browser session. A child machine
 * (questionnaire-live) keeps the live stream: who else is here, and the rows others change
 * (issue 29).
 */

const mustBeProvided = mustBeProvidedIn('questionnaireWorkspaceMachine')

export const questionnaireWorkspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvents,
    input: {} as { id: number; focus?: number }, // focus: a question to open at once
    emitted: {} as WorkspaceEmitted,
  },
  actors: {
    loadWorkspace: fromPromise<WorkspaceData, { id: number }>(mustBeProvided('loadWorkspace')),
    fetchQuestionnaire: fromPromise<Questionnaire, { id: number }>(
      mustBeProvided('fetchQuestionnaire'),
    ),
    runOperation: fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(
      mustBeProvided('runOperation'),
    ),
    loadHistory: fromPromise<Operation[], { id: number }>(mustBeProvided('loadHistory')),
    reanalyze: fromPromise<
      Questionnaire,
      { id: number; mappings?: { tab: string; mapping: TabMapping }[] }
    >(mustBeProvided('reanalyze')),
    startGeneration: fromPromise<Questionnaire, { id: number }>(mustBeProvided('startGeneration')),
    cancelGeneration: fromPromise<Questionnaire, { id: number }>(
      mustBeProvided('cancelGeneration'),
    ),
    loadEvidenceFiles: fromPromise<{ id: number; name: string }[], void>(
      mustBeProvided('loadEvidenceFiles'),
    ),
    /** The license's max_answers, or 0 when the notice was already shown this session. */
    licenseNotice: fromPromise<number, void>(mustBeProvided('licenseNotice')),
    /** The live stream; its own actors (the stream, reading rows) are provided to it. */
    live: questionnaireLiveMachine,
  },
  actions: {
    /** Remembers for the browser session that the license notice was shown (provided). */
    noticeShown: () => {},
    adopt: assign(({ context, event }) =>
      adopted(context, (event as unknown as { output: WorkspaceData }).output),
    ),
    startOperation: assign(({ context, event }) => {
      const operation = operationOf(event)
      return { operation, previousRows: context.rows, rows: optimistic(context.rows, operation) }
    }),
    refreshHistory: raise({ type: 'history.refresh' }),
    announce: enqueueActions(({ event, enqueue }) => {
      const notice = (event as unknown as { output: OperationResult }).output.notice
      if (notice) enqueue.emit({ type: 'operation.notice', message: notice })
    }),
  },
  delays: { POLL: QUESTIONNAIRE_PROGRESS_POLL_MS },
  guards: {
    running: ({ event }) =>
      isRunning((event as unknown as { output: WorkspaceData }).output.questionnaire),
    stillRunning: ({ event }) => isRunning((event as unknown as { output: Questionnaire }).output),
    hasNotice: ({ event }) => (event as unknown as { output: number }).output > 0,
  },
}).createMachine({
  id: 'questionnaireWorkspace',
  context: ({ input }) => ({
    id: input.id,
    questionnaire: null,
    tabs: [],
    rows: [],
    tabId: null,
    filter: 'all',
    focusedId: input.focus ?? null,
    error: null,
    previousRows: null,
    operation: null,
    history: [],
    historyError: null,
    mappingTab: null,
    mappingError: null,
    maxAnswers: 0,
    evidenceFiles: [],
    viewers: [],
    livePaused: false,
  }),
  type: 'parallel',
  on: {
    'presence.set': { actions: assign(({ event }) => ({ viewers: event.viewers })) },
    'live.paused': { actions: assign(({ event }) => ({ livePaused: event.paused })) },
    'exports.changed': { actions: emit({ type: 'exports.changed' }) },
  },
  states: {
    live: {
      invoke: { id: 'live', src: 'live', input: ({ context }) => ({ id: context.id }) },
    },
    main: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'loadWorkspace',
            input: ({ context }) => ({ id: context.id }),
            onDone: [
              { guard: 'running', target: 'progress', actions: 'adopt' },
              { target: 'ready', actions: 'adopt' },
            ],
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({
                error: messageOf(event.error, 'The questionnaire could not be loaded'),
              })),
            },
          },
        },
        failed: {
          on: { retry: { target: 'loading', actions: assign({ error: null }) } },
        },
        progress: {
          initial: 'waiting',
          on: { 'generate.cancel': '.cancelling' },
          states: {
            waiting: { after: { POLL: 'fetching' } },
            cancelling: {
              invoke: {
                src: 'cancelGeneration',
                input: ({ context }) => ({ id: context.id }),
                onDone: { target: '#questionnaireWorkspace.main.loading' },
                onError: {
                  target: 'waiting',
                  actions: emit(({ event }) => ({
                    type: 'operation.failed' as const,
                    message: messageOf(event.error, 'Generation could not be stopped'),
                  })),
                },
              },
            },
            fetching: {
              invoke: {
                src: 'fetchQuestionnaire',
                input: ({ context }) => ({ id: context.id }),
                onDone: [
                  {
                    guard: 'stillRunning',
                    target: 'waiting',
                    actions: assign(({ event }) => ({ questionnaire: event.output })),
                  },
                  { target: '#questionnaireWorkspace.main.loading' },
                ],
                // a failed poll is retried at the next tick
                onError: { target: 'waiting' },
              },
            },
          },
        },
        ready: {
          initial: 'idle',
          on: {
            'rows.merge': {
              actions: assign(({ context, event }) => ({
                rows: mergeRows(context.rows, event.change),
                questionnaire: event.change.questionnaire,
              })),
            },
            'mapping.open': {
              actions: assign(({ event }) => ({ mappingTab: event.tab, mappingError: null })),
            },
            'mapping.close': { actions: assign({ mappingTab: null, mappingError: null }) },
          },
          states: {
            idle: {
              on: {
                'candidate.select': {
                  target: 'operating',
                  actions: 'startOperation',
                },
                'question.delete': { target: 'operating', actions: 'startOperation' },
                undo: { target: 'operating', actions: 'startOperation' },
                'answer.consistency': { target: 'operating', actions: 'startOperation' },
                'section.run': { target: 'operating', actions: 'startOperation' },
                generate: 'starting',
                refresh: '#questionnaireWorkspace.main.loading',
                'mapping.submit': {
                  target: 'reanalyzing',
                  actions: assign({ mappingError: null }),
                },
                reanalyze: 'reanalyzing',
              },
            },
            operating: {
              tags: ['busy'],
              invoke: {
                src: 'runOperation',
                input: ({ context }) => ({
                  id: context.id,
                  operation: context.operation as WorkspaceOperation,
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign(({ context, event }) => ({
                      rows: mergeRows(
                        context.previousRows ?? context.rows,
                        event.output.change,
                        event.output.deletedQuestionId,
                      ),
                      questionnaire: event.output.change.questionnaire,
                      previousRows: null,
                      operation: null,
                    })),
                    emit(({ event }) => ({
                      type: 'operation.done' as const,
                      summary: event.output.change.operation?.summary ?? 'Undone',
                    })),
                    'announce',
                    'refreshHistory',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    assign(({ context }) => ({
                      rows: context.previousRows ?? context.rows,
                      previousRows: null,
                      operation: null,
                    })),
                    emit(({ event }) => ({
                      type: 'operation.failed' as const,
                      message: messageOf(event.error, 'The change could not be made'),
                    })),
                  ],
                },
              },
            },
            starting: {
              tags: ['busy'],
              invoke: {
                src: 'startGeneration',
                input: ({ context }) => ({ id: context.id }),
                onDone: {
                  target: '#questionnaireWorkspace.main.progress',
                  actions: assign(({ event }) => ({ questionnaire: event.output })),
                },
                onError: {
                  target: 'idle',
                  actions: emit(({ event }) => ({
                    type: 'operation.failed' as const,
                    message: messageOf(event.error, 'Answers could not be generated'),
                  })),
                },
              },
            },
            reanalyzing: {
              tags: ['busy'],
              invoke: {
                src: 'reanalyze',
                input: ({ context, event }) => ({ id: context.id, mappings: mappingsOf(event) }),
                onDone: {
                  target: '#questionnaireWorkspace.main.progress',
                  actions: assign(({ event }) => ({
                    questionnaire: event.output,
                    mappingTab: null,
                  })),
                },
                onError: {
                  target: 'idle',
                  actions: [
                    assign(({ event }) => ({
                      mappingError: messageOf(
                        event.error,
                        'The questionnaire could not be re-analysed',
                      ),
                    })),
                    emit(({ event }) => ({
                      type: 'operation.failed' as const,
                      message: messageOf(event.error, 'The questionnaire could not be re-analysed'),
                    })),
                  ],
                },
              },
            },
          },
        },
      },
      on: {
        'tab.select': {
          actions: assign(({ event }) => ({ tabId: event.tabId, focusedId: null })),
        },
        'filter.set': {
          actions: assign(({ event }) => ({ filter: event.filter, focusedId: null })),
        },
        focus: { actions: assign(({ event }) => ({ focusedId: event.questionId })) },
        'focus.next': { actions: assign(({ context }) => ({ focusedId: step(context, 1) })) },
        'focus.previous': {
          actions: assign(({ context }) => ({ focusedId: step(context, -1) })),
        },
      },
    },
    history: {
      initial: 'closed',
      states: {
        closed: { on: { 'history.open': 'loading' } },
        loading: {
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: 'open',
              actions: assign(({ event }) => ({ history: event.output, historyError: null })),
            },
            onError: {
              target: 'open',
              actions: assign(({ event }) => ({
                historyError: messageOf(event.error, 'The history could not be loaded'),
              })),
            },
          },
        },
        open: {
          on: {
            'history.close': 'closed',
            'history.refresh': 'loading',
          },
        },
      },
    },
    files: {
      initial: 'idle',
      states: {
        idle: { on: { 'files.load': 'loading' } },
        loading: {
          invoke: {
            src: 'loadEvidenceFiles',
            onDone: {
              target: 'loaded',
              actions: assign(({ event }) => ({ evidenceFiles: event.output })),
            },
            onError: 'idle',
          },
        },
        loaded: { on: { 'files.load': 'loading' } },
      },
    },
    notice: {
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            src: 'licenseNotice',
            onDone: [
              {
                guard: 'hasNotice',
                target: 'open',
                actions: [assign(({ event }) => ({ maxAnswers: event.output })), 'noticeShown'],
              },
              { target: 'closed' },
            ],
            onError: 'closed',
          },
        },
        open: { on: { 'notice.close': 'closed' } },
        closed: { type: 'final' },
      },
    },
  },
})
