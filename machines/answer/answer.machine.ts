import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
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
  AnswerInput,
  DraftChange,
  LibrarySaved,
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

const messageOf = (error: unknown) => errorMessage(error, QUESTIONNAIRE_TEXTS.changeFailed)

/** The error of a failed call, as the params of the action or guard that reads it. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/** The server's answer to a call, as the params of the actions that take it. */
const changeOf = ({ event }: { event: { output: AnswerChange } }) => event.output

/** The row of the server's answer for this question, or the row unchanged. */
const fromChange = (row: QuestionRow, change: AnswerChange) =>
  change.questions.find((candidate) => candidate.id === row.id) ?? row

export const answerMachine = setup({
  types: {
    context: {} as AnswerContext,
    events: {} as AnswerEvents,
    input: {} as AnswerInput,
    emitted: {} as AnswerEmitted,
  },
  actors: {
    saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(mustBeProvided('saveAnswer')),
    approveAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('approveAnswer')),
    unApproveAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('unApproveAnswer')),
    regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('regenerateAnswer')),
    confirmSource: fromPromise<AnswerChange, AnswerIdInput>(mustBeProvided('confirmSource')),
    saveToLibrary: fromPromise<LibrarySaved, AnswerIdInput>(mustBeProvided('saveToLibrary')),
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
    /**
     * Rows changed elsewhere (undo, another operation) are adopted only when they differ. It reads
     * the row of the 'row.update' event by name, so that each state's handler is one line.
     */
    rowDiffers: ({ context, event }) => {
      assertEvent(event, 'row.update')
      const { row } = event
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
    staleSave: (_, error: unknown) => staleOf(error) !== null,
  },
  actions: {
    /** The row of a 'row.update' event (read by name, as rowDiffers reads it) is adopted. */
    adoptRow: assign(({ event }) => {
      assertEvent(event, 'row.update')
      return { row: event.row, draft: draftOf(event.row) }
    }),
    startDraft: assign(({ context }) => ({
      draft: draftOf(context.row),
      error: null,
      baseVersion: context.row.answer.version,
      theirs: null,
      notice: null,
    })),
    holdTheirs: assign(({ context }, error: unknown) => holdTheirs(context, error)),
    takeTheirs: assign(({ context }) => takeTheirs(context)),
    overTheirs: assign(({ context }) => overTheirs(context)),
    changeDraft: assign(({ context }, { field, value }: DraftChange) => {
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
    noticeOf: assign((_, change: AnswerChange) => ({ notice: change.notice ?? null })),
    /** The server's answer replaces the row, and is announced so that the page's counts follow. */
    takeChange: enqueueActions(({ context, enqueue }, change: AnswerChange) => {
      const row = fromChange(context.row, change)
      enqueue.assign({ row, draft: draftOf(row), previous: null, error: null })
      enqueue.emit({ type: 'changed' as const, change })
    }),
    rollback: assign(({ context }, error: unknown) => ({
      row: context.previous ?? context.row,
      previous: null,
      error: messageOf(error),
    })),
    emitLibrarySaved: emit((_, saved: LibrarySaved) => ({
      type: 'library.saved' as const,
      created: saved.created,
    })),
    showError: assign((_, error: unknown) => ({ error: messageOf(error) })),
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
        change: { actions: { type: 'changeDraft', params: ({ event }) => event } },
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
        onDone: { target: 'settling', actions: { type: 'takeChange', params: changeOf } },
        onError: [
          {
            guard: { type: 'staleSave', params: errorOf },
            target: 'conflicted',
            actions: { type: 'holdTheirs', params: errorOf },
          },
          { target: 'failed', actions: { type: 'rollback', params: errorOf } },
        ],
      },
    },
    conflicted: {
      description:
        'Someone changed the answer while it was being edited: theirs beside mine, never lost.',
      on: {
        'merge.theirs': { target: 'settling', actions: 'takeTheirs' },
        'merge.mine': { target: 'saving', actions: ['overTheirs', 'optimisticSave'] },
        // mine, edited further against their version
        edit: { target: 'editing', actions: 'overTheirs' },
        change: {
          target: 'editing',
          actions: ['overTheirs', { type: 'changeDraft', params: ({ event }) => event }],
        },
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
        onDone: { target: 'settling', actions: { type: 'takeChange', params: changeOf } },
        onError: { target: 'failed', actions: { type: 'rollback', params: errorOf } },
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
          actions: { type: 'emitLibrarySaved', params: ({ event }) => event.output },
        },
        onError: {
          target: 'approved',
          actions: { type: 'showError', params: errorOf },
        },
      },
    },
    unapproving: {
      invoke: {
        src: 'unApproveAnswer',
        input: ({ context }) => ({ answerId: context.row.answer.id }),
        onDone: { target: 'settling', actions: { type: 'takeChange', params: changeOf } },
        onError: { target: 'failed', actions: { type: 'rollback', params: errorOf } },
      },
    },
    confirmingSource: {
      invoke: {
        src: 'confirmSource',
        input: ({ context }) => ({ answerId: context.row.answer.id }),
        onDone: { target: 'settling', actions: { type: 'takeChange', params: changeOf } },
        onError: { target: 'failed', actions: { type: 'rollback', params: errorOf } },
      },
    },
    regenerating: {
      invoke: {
        src: 'regenerateAnswer',
        // a retry sends neither: the answer is drafted again from what it has
        input: ({ context, event }) => ({
          answerId: context.row.answer.id,
          evidence: event.type === 'regenerate' ? event.evidence : undefined,
          fileIds: event.type === 'regenerate' ? event.fileIds : undefined,
        }),
        onDone: {
          target: 'settling',
          actions: [
            { type: 'takeChange', params: changeOf },
            { type: 'noticeOf', params: changeOf },
          ],
        },
        onError: {
          target: 'failed',
          actions: { type: 'rollback', params: errorOf },
        },
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
