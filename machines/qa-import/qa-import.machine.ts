import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { type ImportPreview, type ImportResult, KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  ImportChoice,
  ImportFile,
  ImportInput,
  QaImportContext,
  QaImportEmitted,
  QaImportEvents,
} from './qa-import.types.ts'

/**
 * Importing Q&A from a completed questionnaire (CSV or XLSX): pick the file, see its sheets with
 * the columns Quire suggests, confirm or correct the sheet, header row and columns, import, and
 * read how many items were created, updated and skipped.
 */

const mustBeProvided = mustBeProvidedIn('qaImportMachine')

const EMPTY_CHOICE: ImportChoice = {
  sheet: '',
  header_row: 1,
  question: '',
  answer: '',
  dropdown: '',
  tags_column: '',
  tags: '',
}

/** The suggested choice for a sheet of the preview. */
export function suggestedChoice(preview: ImportPreview, sheetName?: string): ImportChoice {
  const sheet =
    preview.sheets.find((s) => s.name === sheetName) ??
    preview.sheets.find((s) => s.suggested.question && s.suggested.answer) ??
    preview.sheets[0]
  if (!sheet) return EMPTY_CHOICE
  return {
    sheet: sheet.name,
    header_row: sheet.header_row,
    question: sheet.suggested.question ?? '',
    answer: sheet.suggested.answer ?? '',
    dropdown: sheet.suggested.dropdown ?? '',
    tags_column: sheet.suggested.tags ?? '',
    tags: '',
  }
}

const errorOf = (error: unknown) => errorMessage(error, KNOWLEDGE_TEXTS.importReadFailed)

export const qaImportMachine = setup({
  types: {
    context: {} as QaImportContext,
    events: {} as QaImportEvents,
    emitted: {} as QaImportEmitted,
  },
  actors: {
    previewFile: fromPromise<ImportPreview, { file: ImportFile }>(mustBeProvided('previewFile')),
    importFile: fromPromise<ImportResult, ImportInput>(mustBeProvided('importFile')),
  },
  guards: {
    mappingComplete: ({ context }) =>
      Boolean(context.choice.sheet && context.choice.question && context.choice.answer),
  },
  actions: {
    reset: assign({ file: null, preview: null, choice: EMPTY_CHOICE, result: null, error: null }),
    setFile: assign((_, file: ImportFile) => ({ file, error: null })),
    setPreview: assign((_, preview: ImportPreview) => ({
      preview,
      choice: suggestedChoice(preview),
    })),
    changeChoice: assign(({ context }, change: Partial<ImportChoice>) => ({
      choice: { ...context.choice, ...change },
      error: null,
    })),
    changeSheet: assign(({ context }, sheet: string) => ({
      choice: context.preview ? suggestedChoice(context.preview, sheet) : context.choice,
    })),
    needColumns: assign({ error: KNOWLEDGE_TEXTS.importColumns }),
    clearError: assign({ error: null }),
    setError: assign((_, error: unknown) => ({ error: errorOf(error) })),
    setResult: assign((_, result: ImportResult) => ({ result })),
    announce: emit((_, result: ImportResult) => ({ type: 'imported' as const, result })),
  },
}).createMachine({
  id: 'qaImport',
  context: { file: null, preview: null, choice: EMPTY_CHOICE, result: null, error: null },
  initial: 'closed',
  states: {
    closed: { on: { open: { target: 'picking', actions: 'reset' } } },
    picking: {
      on: {
        close: 'closed',
        'file.choose': {
          target: 'previewing',
          actions: { type: 'setFile', params: ({ event }) => event.file },
        },
      },
    },
    previewing: {
      tags: 'loading',
      invoke: {
        src: 'previewFile',
        input: ({ context }) => ({ file: context.file as ImportFile }),
        onDone: {
          target: 'mapping',
          actions: { type: 'setPreview', params: ({ event }) => event.output },
        },
        onError: {
          target: 'picking',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    mapping: {
      on: {
        close: 'closed',
        back: { target: 'picking', actions: 'reset' },
        'choice.change': { actions: { type: 'changeChoice', params: ({ event }) => event.change } },
        'sheet.change': { actions: { type: 'changeSheet', params: ({ event }) => event.sheet } },
        submit: [
          { guard: 'mappingComplete', target: 'importing', actions: 'clearError' },
          { actions: 'needColumns' },
        ],
      },
    },
    importing: {
      tags: 'loading',
      invoke: {
        src: 'importFile',
        input: ({ context }) => ({
          file: context.file as ImportFile,
          mapping: {
            sheet: context.choice.sheet,
            header_row: context.choice.header_row,
            question: context.choice.question,
            answer: context.choice.answer,
            dropdown: context.choice.dropdown || null,
            tags_column: context.choice.tags_column || null,
            tags: context.choice.tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          },
        }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'setResult', params: ({ event }) => event.output },
            { type: 'announce', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'mapping',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    done: { on: { close: 'closed', back: { target: 'picking', actions: 'reset' } } },
  },
})
