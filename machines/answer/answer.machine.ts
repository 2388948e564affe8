import { assign, emit, fromPromise, setup } from 'xstate'
import {
  type AnswerChange,
  missingParts,
  QUESTIONNAIRE_TEXTS,
  type QuestionRow,
} from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  AnswerAction,
  AnswerContext,
  AnswerEmitted,
  AnswerEvents,
  AnswerIdInput,
  SaveAnswerInput,
} from './answer.types.ts'
import { draftOf, holdTheirs, overTheirs, staleOf, takeTheirs } from './merge.ts'

export type * from './answer.types.ts'

/**
 * The life of one answer on the review page: viewing it, editing a draft, saving, approving or
 * withdrawing the approval, regenerating, confirming that a changed document still supports it
 * (issue 28), and failing. Changes show at once (optimistic update);
 * when the server refuses, the answer rolls back to what it was and the error is shown with a
 * retry. Every server answer is emitted as 'changed' so that the page's counts follow. Rows
 * changed elsewhere (undo, another operation) reach the answer while it is at rest, and only when
 * they differ from the one it holds.
 */

const mustBeProvided = mustBeProvidedIn('answerMachine')

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'The change could not be saved'

/** The row of the server's answer for this question, or the row unchanged. */
const fromChange = (row: QuestionRow, change: AnswerChange) =>
  change.questions.find((candidate) => candidate.id === row.id) ?? row

export const answerMachine = setup({
  types: {
    context: {} as AnswerContext,
    events: {} as AnswerEvents,
    input: {} as { row: QuestionRow },
    emitted: {} as AnswerEmitted,
  },
  actors: {
    saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(mustBeProvided('saveAnswer')),
    approveAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('approveAnswer')),
    unApproveAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('unApproveAnswer')),
    regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('regenerateAnswer')),
    confirmSource: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('confirmSource')),
    saveToLibrary: fromPromise<{ item_id: number; created: boolean }, AnswerIdInput>(
      mustBeProvided('saveToLibrary'),
    ),
  },
  guards: {
    isApproved: ({ context }) => context.row.answer.status === 'approved',
    hasContent: ({ context }) =>
      context.row.answer.text.trim() !== '' || context.row.answer.choice !== null,
    draftChanged: ({ context }) => {
      const { answer } = context.row
      return (
        context.draft.text !== answer.text ||
        context.draft.choice !== answer.choice ||
        context.draft.comment !== answer.comment
      )
    },
    /** Rows changed elsewhere (undo, another operation) are adopted only when they differ. */
    rowDiffers: ({ context, event }) => {
      const { row } = event as Extract<AnswerEvents, { type: 'row.update' }>
      return (
        context.row.answer.id !== row.answer.id ||
        context.row.answer.updated_at !== row.answer.updated_at ||
        context.row.answer.status !== row.answer.status ||
        context.row.answer.flags.length !== row.answer.flags.length ||
        context.row.candidates.length !== row.candidates.length ||
        // its assignment and review (issue 29) change without the answer changing
        JSON.stringify(context.row.assignment) !== JSON.stringify(row.assignment)
      )
    },
    retrySave: ({ context }) => context.lastAction === 'save',
    retryApprove: ({ context }) => context.lastAction === 'approve',
    retryUnapprove: ({ context }) => context.lastAction === 'unapprove',
    retryConfirmSource: ({ context }) => context.lastAction === 'confirmSource',
    sourceChanged: ({ context }) => context.row.answer.flags.includes('source_changed'),
    staleSave: ({ event }) => staleOf((event as { error?: unknown }).error) !== null,
  },
  actions: {
    adoptRow: assign(({ event }) => {
      const row = (event as { row: QuestionRow }).row
      return { row, draft: draftOf(row) }
    }),
    startDraft: assign(({ context }) => ({
      draft: draftOf(context.row),
      error: null,
      baseVersion: context.row.answer.version,
      theirs: null,
      notice: null,
    })),
    holdTheirs: assign(({ context, event }) =>
      holdTheirs(context, (event as { error?: unknown }).error),
    ),
    takeTheirs: assign(({ context }) => takeTheirs(context)),
    overTheirs: assign(({ context }) => overTheirs(context)),
    changeDraft: assign(({ context, event }) => {
      const { field, value } = event as Extract<AnswerEvents, { type: 'change' }>
      const draft = { ...context.draft }
      if (field === 'choice') draft.choice = value || null
      else draft[field] = value ?? ''
      return { draft }
    }),
    optimisticSave: assign(({ context }) => {
      const answered = context.draft.text.trim() !== '' || context.draft.choice !== null
      return {
        previous: context.row,
        lastAction: 'save' as const,
        error: null,
        row: {
          ...context.row,
          answer: {
            ...context.row.answer,
            ...context.draft,
            status: answered ? ('edited' as const) : ('pending' as const),
          },
        },
      }
    }),
    optimisticStatus: assign(({ context }, status: 'approved' | 'edited') => ({
      previous: context.row,
      error: null,
      row: { ...context.row, answer: { ...context.row.answer, status } },
    })),
    rememberAction: assign((_, action: AnswerAction) => ({
      lastAction: action,
      error: null,
      notice: null,
    })),
    // a regeneration that found nothing new says so, rather than nothing (issue 39)
    noticeOf: assign(({ event }) => ({
      notice: (event as unknown as { output: AnswerChange }).output.notice ?? null,
    })),
    acceptChange: assign(({ context, event }) => {
      const change = (event as unknown as { output: AnswerChange }).output
      const row = fromChange(context.row, change)
      return { row, draft: draftOf(row), previous: null, error: null }
    }),
    emitChange: emit(({ event }) => ({
      type: 'changed' as const,
      change: (event as unknown as { output: AnswerChange }).output,
    })),
    rollback: assign(({ context, event }) => ({
      row: context.previous ?? context.row,
      previous: null,
      error: messageOf((event as unknown as { error: unknown }).error),
    })),
    needsContent: assign({ error: QUESTIONNAIRE_TEXTS.emptyAnswer }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'answer',
  context: ({ input }) => ({
    row: input.row,
    draft: draftOf(input.row),
    previous: null,
    error: null,
    lastAction: null,
    baseVersion: input.row.answer.version,
    theirs: null,
    notice: null,
  }),
  initial: 'settling',
  states: {
    settling: {
      always: [{ guard: 'isApproved', target: 'approved' }, { target: 'viewing' }],
    },
    viewing: {
      on: {
        'row.update': { guard: 'rowDiffers', target: 'settling', actions: 'adoptRow' },
        edit: { target: 'editing', actions: 'startDraft' },
        approve: [
          {
            guard: 'hasContent',
            target: 'approving',
            actions: [
              { type: 'rememberAction', params: 'approve' },
              { type: 'optimisticStatus', params: 'approved' },
            ],
          },
          { actions: 'needsContent' },
        ],
        regenerate: {
          target: 'regenerating',
          actions: { type: 'rememberAction', params: 'regenerate' },
        },
        'source.confirm': {
          guard: 'sourceChanged',
          target: 'confirmingSource',
          actions: { type: 'rememberAction', params: 'confirmSource' },
        },
      },
    },
    editing: {
      on: {
        change: { actions: 'changeDraft' },
        cancel: { target: 'settling', actions: 'startDraft' },
        save: [
          { guard: 'draftChanged', target: 'saving', actions: 'optimisticSave' },
          { target: 'settling' },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'saveAnswer',
        input: ({ context }) => ({
          answerId: context.row.answer.id,
          edit: {
            text: context.draft.text,
            choice: context.draft.choice,
            comment: context.draft.comment,
            version: context.baseVersion,
          },
        }),
        onDone: { target: 'settling', actions: ['acceptChange', 'emitChange'] },
        onError: [
          { guard: 'staleSave', target: 'conflicted', actions: 'holdTheirs' },
          { target: 'failed', actions: 'rollback' },
        ],
      },
    },
    /** Someone changed the answer while it was being edited: theirs beside mine, never lost. */
    conflicted: {
      on: {
        'merge.theirs': { target: 'settling', actions: 'takeTheirs' },
        'merge.mine': { target: 'saving', actions: ['overTheirs', 'optimisticSave'] },
        // mine, edited further against their version
        edit: { target: 'editing', actions: 'overTheirs' },
        change: { target: 'editing', actions: ['overTheirs', 'changeDraft'] },
      },
    },
    approving: {
      invoke: {
        src: 'approveAnswer',
        // the panel shows what the answer lacks beside the button: approving it is confirming it
        input: ({ context }) => ({
          answerId: context.row.answer.id,
          confirmIncomplete: missingParts(context.row.cell_needs, context.row.answer).length > 0,
        }),
        onDone: { target: 'settling', actions: ['acceptChange', 'emitChange'] },
        onError: { target: 'failed', actions: 'rollback' },
      },
    },
    approved: {
      on: {
        'row.update': { guard: 'rowDiffers', target: 'settling', actions: 'adoptRow' },
        edit: { target: 'editing', actions: 'startDraft' },
        'library.save': { target: 'savingToLibrary', actions: 'clearError' },
        'source.confirm': {
          guard: 'sourceChanged',
          target: 'confirmingSource',
          actions: { type: 'rememberAction', params: 'confirmSource' },
        },
        // an explicit request: the approved answer is replaced, and the history can undo it
        regenerate: {
          target: 'regenerating',
          actions: { type: 'rememberAction', params: 'regenerate' },
        },
        unapprove: {
          target: 'unapproving',
          actions: [
            { type: 'rememberAction', params: 'unapprove' },
            { type: 'optimisticStatus', params: 'edited' },
          ],
        },
      },
    },
    savingToLibrary: {
      invoke: {
        src: 'saveToLibrary',
        input: ({ context }) => ({ answerId: context.row.answer.id }),
        onDone: {
          target: 'approved',
          actions: emit(({ event }) => ({
            type: 'library.saved' as const,
            created: event.output.created,
          })),
        },
        onError: {
          target: 'approved',
          actions: assign(({ event }) => ({ error: messageOf(event.error) })),
        },
      },
    },
    unapproving: {
      invoke: {
        src: 'unApproveAnswer',
        input: ({ context }) => ({ answerId: context.row.answer.id }),
        onDone: { target: 'settling', actions: ['acceptChange', 'emitChange'] },
        onError: { target: 'failed', actions: 'rollback' },
      },
    },
    confirmingSource: {
      invoke: {
        src: 'confirmSource',
        input: ({ context }) => ({ answerId: context.row.answer.id }),
        onDone: { target: 'settling', actions: ['acceptChange', 'emitChange'] },
        onError: { target: 'failed', actions: 'rollback' },
      },
    },
    regenerating: {
      invoke: {
        src: 'regenerateAnswer',
        input: ({ context, event }) => ({
          answerId: context.row.answer.id,
          evidence: (event as { evidence?: string }).evidence,
          fileIds: (event as { fileIds?: number[] }).fileIds,
        }),
        onDone: { target: 'settling', actions: ['acceptChange', 'emitChange', 'noticeOf'] },
        onError: { target: 'failed', actions: 'rollback' },
      },
    },
    failed: {
      on: {
        retry: [
          { guard: 'retrySave', target: 'saving', actions: 'optimisticSave' },
          {
            guard: 'retryApprove',
            target: 'approving',
            actions: { type: 'optimisticStatus', params: 'approved' },
          },
          {
            guard: 'retryUnapprove',
            target: 'unapproving',
            actions: { type: 'optimisticStatus', params: 'edited' },
          },
          { guard: 'retryConfirmSource', target: 'confirmingSource', actions: 'clearError' },
          { target: 'regenerating', actions: 'clearError' },
        ],
        // the draft is kept so that nothing typed is lost
        edit: { target: 'editing', actions: 'clearError' },
        dismiss: { target: 'settling', actions: 'clearError' },
        'row.update': {
          guard: 'rowDiffers',
          target: 'settling',
          actions: ['adoptRow', 'clearError'],
        },
      },
    },
  },
})
