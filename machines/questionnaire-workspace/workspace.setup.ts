import { assign, emit, enqueueActions, fromPromise, raise, sendTo, setup } from 'xstate'
import type {
  AnswerChange,
  Operation,
  Questionnaire,
  SectionOperation,
  TabMapping,
} from '../../contract/questionnaires.ts'
import { assignedText, exportedText, WORKSPACE_TEXTS } from '../../contract/workspace-texts.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { assignmentMachine } from '../assignment/index.ts'
import { carryForwardMachine } from '../carry-forward/index.ts'
import { QUESTIONNAIRE_PROGRESS_POLL_MS } from '../constants.ts'
import { questionnaireActivityMachine } from '../questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../questionnaire-export/index.ts'
import { questionnaireLiveMachine } from '../questionnaire-live/index.ts'
import { sectionPreviewMachine } from '../section-preview/index.ts'
import { adopted, isRunning, mergeRows, messageOf, operationOf, optimistic, step } from './rows.ts'
import type {
  OperationResult,
  WorkspaceContext,
  WorkspaceData,
  WorkspaceEmitted,
  WorkspaceEvents,
  WorkspaceOperation,
} from './workspace.types.ts'

/**
 * What the review workspace's chart names (questionnaire-workspace.machine.ts): its types, its
 * actors and children, and its actions, guards and delays, each by name with typed params.
 */

const mustBeProvided = mustBeProvidedIn('questionnaireWorkspaceMachine')

/** A section operation as the section-preview child is asked to show it. */
interface SectionAsk {
  operation: SectionOperation
  tabId: number | null
  instruction?: string
}

const base = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvents,
    input: {} as { id: number; focus?: number }, // focus: a question to open at once
    emitted: {} as WorkspaceEmitted,
    children: {} as {
      live: 'live'
      exports: 'exports'
      carry: 'carry'
      sections: 'sections'
      assignment: 'assignment'
      activity: 'activity'
    },
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
    // the children: each machine's own actors are provided to it (src/pages/questionnaire)
    /** The live stream: who else is here, and the rows others change (issue 29). */
    live: questionnaireLiveMachine,
    /** The Export menu: filled files written by a job, downloaded (issue 37). */
    exports: questionnaireExportMachine,
    /** The offer to start from an earlier questionnaire of the same template. */
    carry: carryForwardMachine,
    /** A section operation shown before it runs (issue 30). */
    sections: sectionPreviewMachine,
    /** The assign dialog (issue 29). */
    assignment: assignmentMachine,
    /** Who did what, beside the history (issue 29). */
    activity: questionnaireActivityMachine,
  },
  delays: { POLL: QUESTIONNAIRE_PROGRESS_POLL_MS },
  guards: {
    running: (_, data: WorkspaceData) => isRunning(data.questionnaire),
    stillRunning: (_, questionnaire: Questionnaire) => isRunning(questionnaire),
    hasNotice: (_, maxAnswers: number) => maxAnswers > 0,
  },
  actions: {
    /** Remembers for the browser session that the license notice was shown (provided). */
    noticeShown: () => {},
    adopt: assign(({ context }, data: WorkspaceData) => adopted(context, data)),
    failLoading: assign((_, error: unknown) => ({
      error: messageOf(error, WORKSPACE_TEXTS.loadFailed),
    })),
    clearError: assign({ error: null }),
    setQuestionnaire: assign((_, questionnaire: Questionnaire) => ({ questionnaire })),
    mergeChange: assign(({ context }, change: AnswerChange) => ({
      rows: mergeRows(context.rows, change),
      questionnaire: change.questionnaire,
    })),
    startOperation: assign(({ context, event }) => {
      const operation = operationOf(event)
      return { operation, previousRows: context.rows, rows: optimistic(context.rows, operation) }
    }),
    finishOperation: assign(({ context }, result: OperationResult) => ({
      rows: mergeRows(
        context.previousRows ?? context.rows,
        result.change,
        result.deletedQuestionId,
      ),
      questionnaire: result.change.questionnaire,
      previousRows: null,
      operation: null,
    })),
    rollBack: assign(({ context }) => ({
      rows: context.previousRows ?? context.rows,
      previousRows: null,
      operation: null,
    })),
    // the toasts the page shows, worded here (contract/workspace-texts.ts)
    toastError: emit((_, title: string) => ({
      type: 'toast' as const,
      toast: { type: 'error' as const, title },
    })),
    toastExported: emit((_, fileName: string) => ({
      type: 'toast' as const,
      toast: { type: 'success' as const, title: exportedText(fileName) },
    })),
    toastAssigned: emit((_, done: { count: number; unassigned: boolean }) => ({
      type: 'toast' as const,
      toast: { type: 'success' as const, title: assignedText(done.count, done.unassigned) },
    })),
    toastLibrary: emit((_, created: boolean) => ({
      type: 'toast' as const,
      toast: {
        type: 'success' as const,
        title: created ? WORKSPACE_TEXTS.libraryAdded : WORKSPACE_TEXTS.libraryUpdated,
      },
    })),
    refreshHistory: raise({ type: 'history.refresh' }),
    setHistory: assign((_, history: Operation[]) => ({ history, historyError: null })),
    failHistory: assign((_, error: unknown) => ({
      historyError: messageOf(error, WORKSPACE_TEXTS.historyFailed),
    })),
    openMapping: assign((_, tab: string) => ({ mappingTab: tab, mappingError: null })),
    closeMapping: assign({ mappingTab: null, mappingError: null }),
    clearMappingError: assign({ mappingError: null }),
    reanalysed: assign((_, questionnaire: Questionnaire) => ({ questionnaire, mappingTab: null })),
    failMapping: assign((_, message: string) => ({ mappingError: message })),
    selectTab: assign((_, tabId: number) => ({ tabId, focusedId: null })),
    setFilter: assign((_, filter: WorkspaceContext['filter']) => ({ filter, focusedId: null })),
    focus: assign((_, questionId: number) => ({ focusedId: questionId })),
    focusNext: assign(({ context }) => ({ focusedId: step(context, 1) })),
    focusPrevious: assign(({ context }) => ({ focusedId: step(context, -1) })),
    setEvidenceFiles: assign((_, evidenceFiles: { id: number; name: string }[]) => ({
      evidenceFiles,
    })),
    setMaxAnswers: assign((_, maxAnswers: number) => ({ maxAnswers })),
    setViewers: assign((_, viewers: WorkspaceContext['viewers']) => ({ viewers })),
    setLivePaused: assign((_, livePaused: boolean) => ({ livePaused })),
    /** A question's open comment threads on its row at once (the live stream reads it later too). */
    countComments: assign(({ context }, counted: { questionId: number; open: number }) => {
      const row = context.rows.find((one) => one.id === counted.questionId)
      // the same count: the rows stay as they are (no view reads them again)
      if (!row || row.assignment.comments === counted.open) return {}
      const changed = { ...row, assignment: { ...row.assignment, comments: counted.open } }
      return { rows: context.rows.map((one) => (one === row ? changed : one)) }
    }),
    askDelete: assign((_, questionId: number) => ({ deletingId: questionId })),
    forgetDelete: assign({ deletingId: null }),
    // what the workspace tells its children
    /** The export menu checks whether the latest filled file is current on each new revision. */
    tellRevision: sendTo('exports', ({ context }) => ({
      type: 'revision' as const,
      revision: context.questionnaire?.revision ?? null,
    })),
    /** Someone's export finished: the export menu reads the latest file again. */
    refreshExports: sendTo('exports', { type: 'refresh' }),
    loadActivity: sendTo('activity', { type: 'load' }),
    previewSection: sendTo('sections', (_, ask: SectionAsk) => ({
      type: 'preview' as const,
      operation: ask.operation,
      tabId: ask.tabId,
      instruction: ask.instruction,
    })),
    /** A custom instruction, for the chosen tab, previewed before it runs. */
    previewCustom: sendTo('sections', ({ context }, instruction: string) => ({
      type: 'preview' as const,
      operation: 'custom' as const,
      tabId: context.tabId,
      instruction,
    })),
    /** Assigns one question, or without one the filter shown (else the tab). */
    openAssign: sendTo('assignment', ({ context }, questionId: number | null) => ({
      type: 'open' as const,
      target: { questionId, tabId: context.tabId, filter: context.filter },
      scope: questionId ? 'question' : context.filter !== 'all' ? 'filter' : 'tab',
    })),
  },
})

/** The workspace before anything is read; `focus`, a question to open at once. */
export const workspaceContext = (input: { id: number; focus?: number }): WorkspaceContext => ({
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
  deletingId: null,
})

export const workspaceSetup = base.extend({
  // the actions that choose what to do: typed by the setup above (TypeScript cannot infer an
  // `enqueueActions` beside the actions it may enqueue)
  actions: {
    /** An operation's summary, and what the reviewer should know of it (contradictions). */
    toastOperation: enqueueActions(({ enqueue }, result: OperationResult) => {
      const title = result.change.operation?.summary ?? WORKSPACE_TEXTS.undone
      enqueue.emit({ type: 'toast', toast: { type: 'success', title } })
      if (result.notice)
        enqueue.emit({ type: 'toast', toast: { type: 'warning', title: result.notice } })
    }),
    deleteAsked: enqueueActions(({ context, enqueue }) => {
      if (context.deletingId !== null)
        enqueue.raise({ type: 'question.delete', questionId: context.deletingId })
    }),
    /** Once the questionnaire is read, the carry-forward offer looks for an earlier one. */
    offerCarry: enqueueActions(({ context, enqueue }) => {
      if (context.questionnaire?.status !== 'ready') return
      const carried = context.rows.some((row) => row.carried_from)
      enqueue.sendTo('carry', { type: 'check', carried })
    }),
  },
})
