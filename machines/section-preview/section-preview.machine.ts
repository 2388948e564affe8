import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import {
  QUESTIONNAIRE_TEXTS,
  type SectionOperation,
  type SectionPreview,
} from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * A bulk change of a section (issue 30: shorten, make consistent, add examples, a custom
 * instruction) is shown before it is made: the server says what each answer would become, the
 * reviewer reads it and confirms or cancels. Confirming hands the operation to the workspace,
 * which runs it as one undoable operation; cancelling changes nothing.
 */

export interface SectionRequest {
  operation: SectionOperation
  tabId: number | null
  instruction?: string
}

export interface SectionPreviewContext {
  questionnaireId: number
  request: SectionRequest | null
  preview: SectionPreview | null
  error: string | null
}

export type SectionPreviewEvents =
  | ({ type: 'preview' } & SectionRequest)
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'retry' }

export type SectionPreviewEmitted = { type: 'confirmed' } & SectionRequest

export interface PreviewSectionInput extends SectionRequest {
  questionnaireId: number
}

export const sectionPreviewMachine = setup({
  types: {
    context: {} as SectionPreviewContext,
    events: {} as SectionPreviewEvents,
    input: {} as { questionnaireId: number },
    emitted: {} as SectionPreviewEmitted,
  },
  actors: {
    previewSection: fromPromise<SectionPreview, PreviewSectionInput>(
      mustBeProvidedIn('sectionPreviewMachine')('previewSection'),
    ),
  },
  guards: {
    changesSomething: ({ context }) => (context.preview?.changes.length ?? 0) > 0,
  },
  actions: {
    /** Hands the confirmed operation on: emitted, and to the workspace that runs it as a child. */
    handOver: enqueueActions(({ context, self, enqueue }) => {
      if (!context.request) return
      enqueue.emit({ type: 'confirmed', ...context.request })
      if (self._parent) enqueue.sendParent({ type: 'section.run', ...context.request })
    }),
  },
}).createMachine({
  id: 'sectionPreview',
  context: ({ input }) => ({
    questionnaireId: input.questionnaireId,
    request: null,
    preview: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        preview: {
          target: 'loading',
          actions: assign(({ event }) => ({
            request: {
              operation: event.operation,
              tabId: event.tabId,
              instruction: event.instruction,
            },
            preview: null,
            error: null,
          })),
        },
      },
    },
    loading: {
      invoke: {
        src: 'previewSection',
        input: ({ context }) => ({
          questionnaireId: context.questionnaireId,
          ...(context.request as SectionRequest),
        }),
        onDone: { target: 'reviewing', actions: assign({ preview: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) =>
              errorMessage(event.error, QUESTIONNAIRE_TEXTS.sectionPreviewFailed),
          }),
        },
      },
      on: { cancel: 'idle' },
    },
    reviewing: {
      on: {
        confirm: {
          guard: 'changesSomething',
          target: 'idle',
          actions: 'handOver',
        },
        cancel: 'idle',
      },
    },
    failed: { on: { retry: 'loading', cancel: 'idle' } },
  },
})
