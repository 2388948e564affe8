import { assign, emit, enqueueActions, fromPromise, raise, setup } from 'xstate'
import type {
  AnswerChange,
  AnswerFilter,
  Operation,
  Questionnaire,
  QuestionRow,
  SectionOperation,
  Tab,
  TabMapping,
} from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { QUESTIONNAIRE_PROGRESS_POLL_MS } from '../constants.ts'

/**
 * The review workspace of one questionnaire ('Questionnaire Automation'): it loads the
 * questionnaire, its tabs and every question; while the file is analysed (or answered) it follows
 * the progress; then it holds the chosen tab, the filter and the focused question, runs the
 * operations that change several rows (choosing a candidate, deleting a question, undo) one at a
 * time with the rows rolled back when the server refuses, and opens the history and the mapping
 * dialog. The license notice of spec section 2 shows once per browser session.
 */

export interface WorkspaceData {
  questionnaire: Questionnaire
  tabs: Tab[]
  rows: QuestionRow[]
}

export type WorkspaceOperation =
  | { kind: 'select'; questionId: number; answerId: number }
  | { kind: 'delete'; questionId: number }
  | { kind: 'undo' }
  /** Copies an answer to the questions that ask the same thing. */
  | { kind: 'consistency'; answerId: number }
  /** A section operation over a tab. */
  | { kind: 'section'; operation: SectionOperation; tabId: number | null; instruction?: string }

export interface OperationResult {
  change: AnswerChange
  deletedQuestionId?: number
  /** Something the user should know, such as approved answers that contradict each other. */
  notice?: string
}

export interface WorkspaceContext {
  id: number
  questionnaire: Questionnaire | null
  tabs: Tab[]
  rows: QuestionRow[]
  tabId: number | null
  filter: AnswerFilter
  focusedId: number | null
  error: string | null
  /** The rows before an operation, to roll back to. */
  previousRows: QuestionRow[] | null
  operation: WorkspaceOperation | null
  history: Operation[]
  historyError: string | null
  mappingTab: string | null
  mappingError: string | null
  maxAnswers: number
  /** Repository files the user may answer from (regenerate with evidence). */
  evidenceFiles: { id: number; name: string }[]
}

export type WorkspaceEvents =
  | { type: 'retry' }
  /** Reads every answer again (after the earlier answers were carried forward). */
  | { type: 'refresh' }
  | { type: 'tab.select'; tabId: number }
  | { type: 'filter.set'; filter: AnswerFilter }
  | { type: 'focus'; questionId: number }
  | { type: 'focus.next' }
  | { type: 'focus.previous' }
  | { type: 'rows.merge'; change: AnswerChange }
  | { type: 'candidate.select'; questionId: number; answerId: number }
  | { type: 'question.delete'; questionId: number }
  | { type: 'undo' }
  | { type: 'history.open' }
  | { type: 'history.close' }
  | { type: 'history.refresh' }
  | { type: 'mapping.open'; tab: string }
  | { type: 'mapping.close' }
  | { type: 'mapping.submit'; tab: string; mapping: TabMapping }
  | { type: 'reanalyze' }
  | { type: 'notice.close' }
  | { type: 'files.load' }
  | { type: 'generate' }
  | { type: 'generate.cancel' }
  | { type: 'answer.consistency'; answerId: number }
  | {
      type: 'section.run'
      operation: SectionOperation
      tabId: number | null
      instruction?: string
    }

export type WorkspaceEmitted =
  | { type: 'operation.failed'; message: string }
  | { type: 'operation.done'; summary: string }
  | { type: 'operation.notice'; message: string }

const mustBeProvided = mustBeProvidedIn('questionnaireWorkspaceMachine')

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

const RUNNING = ['queued', 'analyzing', 'generating'] as const
const isRunning = (questionnaire: Questionnaire | null) =>
  Boolean(questionnaire && (RUNNING as readonly string[]).includes(questionnaire.status))

/** Whether a row passes a filter (the same rules as the server's filters). */
export function passesFilter(row: QuestionRow, filter: AnswerFilter) {
  const { answer } = row
  const answered =
    ['generated', 'edited', 'approved'].includes(answer.status) &&
    (answer.text.trim() !== '' || answer.choice !== null)
  switch (filter) {
    case 'all':
      return true
    case 'unanswered':
      return !answered
    case 'low_confidence':
      return answered && answer.status !== 'approved' && (answer.confidence ?? 1) < 0.5
    case 'needs_review':
      return answered && answer.status !== 'approved'
    case 'approved':
      return answer.status === 'approved'
  }
}

/** The rows shown: the chosen tab's, through the filter. */
export const visibleRows = (context: Pick<WorkspaceContext, 'rows' | 'tabId' | 'filter'>) =>
  context.rows.filter(
    (row) =>
      (context.tabId === null || row.tab_id === context.tabId) && passesFilter(row, context.filter),
  )

/** Rows updated from a change; deleted questions removed. */
export function mergeRows(rows: QuestionRow[], change: AnswerChange, deletedId?: number) {
  const byId = new Map(change.questions.map((row) => [row.id, row]))
  const merged = rows.filter((row) => row.id !== deletedId).map((row) => byId.get(row.id) ?? row)
  // a question brought back (an undone delete) goes back to its place
  const missing = change.questions.filter((row) => !rows.some((r) => r.id === row.id))
  if (!missing.length) return merged
  return [...merged, ...missing].sort((a, b) => a.position - b.position)
}

function optimistic(rows: QuestionRow[], operation: WorkspaceOperation) {
  if (operation.kind === 'delete') return rows.filter((row) => row.id !== operation.questionId)
  if (operation.kind === 'select') {
    return rows.map((row) => {
      if (row.id !== operation.questionId) return row
      const chosen = row.candidates.find((c) => c.id === operation.answerId)
      return chosen ? { ...row, answer: chosen } : row
    })
  }
  return rows
}

const firstTab = (tabs: Tab[]) => (tabs.find((tab) => tab.questions > 0) ?? tabs[0])?.id ?? null

export const questionnaireWorkspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvents,
    input: {} as { id: number },
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
  },
  actions: {
    /** Remembers for the browser session that the license notice was shown (provided). */
    noticeShown: () => {},
    adopt: assign(({ context, event }) => {
      const data = (event as unknown as { output: WorkspaceData }).output
      const keepTab = data.tabs.some((tab) => tab.id === context.tabId)
      return {
        questionnaire: data.questionnaire,
        tabs: data.tabs,
        rows: data.rows,
        tabId: keepTab ? context.tabId : firstTab(data.tabs),
        error: null,
      }
    }),
    startOperation: assign(({ context, event }) => {
      const operation: WorkspaceOperation =
        event.type === 'candidate.select'
          ? { kind: 'select', questionId: event.questionId, answerId: event.answerId }
          : event.type === 'question.delete'
            ? { kind: 'delete', questionId: event.questionId }
            : event.type === 'answer.consistency'
              ? { kind: 'consistency', answerId: event.answerId }
              : event.type === 'section.run'
                ? {
                    kind: 'section',
                    operation: event.operation,
                    tabId: event.tabId,
                    instruction: event.instruction,
                  }
                : { kind: 'undo' }
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
    focusedId: null,
    error: null,
    previousRows: null,
    operation: null,
    history: [],
    historyError: null,
    mappingTab: null,
    mappingError: null,
    maxAnswers: 0,
    evidenceFiles: [],
  }),
  type: 'parallel',
  states: {
    main: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'loadWorkspace',
            input: ({ context }) => ({ id: context.id }),
            onDone: [
              {
                guard: 'running',
                target: 'progress',
                actions: 'adopt',
              },
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
                input: ({ context, event }) => {
                  const submit = event as Extract<WorkspaceEvents, { type: 'mapping.submit' }>
                  return {
                    id: context.id,
                    mappings:
                      submit.type === 'mapping.submit'
                        ? [{ tab: submit.tab, mapping: submit.mapping }]
                        : undefined,
                  }
                },
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

function step(context: WorkspaceContext, by: 1 | -1) {
  const rows = visibleRows(context)
  if (!rows.length) return null
  const at = rows.findIndex((row) => row.id === context.focusedId)
  if (at < 0) return (by === 1 ? rows[0] : rows[rows.length - 1])?.id ?? null
  return rows[Math.min(rows.length - 1, Math.max(0, at + by))]?.id ?? null
}
