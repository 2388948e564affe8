import { assign, emit, fromCallback, fromPromise, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { fillText, KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'
import { QUESTIONNAIRE_TEXTS, type Questionnaire } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_STATUS_POLL_MS } from '../constants.ts'
import { DEFAULT_FILTERS, type QuestionnaireFilters } from './filters.ts'
import type {
  QuestionnaireListContext,
  QuestionnaireListEvents,
  QuestionnaireListSchema,
  QuestionnairePage,
  UploadInput,
  UploadRow,
  UploadSource,
  UploadWorkField,
  UploadWorkValues,
} from './questionnaire-list.types.ts'

/**
 * The Questionnaires page: the list (followed while any questionnaire is analysed or answered),
 * uploads one file after another with a progress bar each, and batch deletion behind a
 * confirmation. The list is narrowed and ordered by its filters (issue 29); a questionnaire whose
 * work changed elsewhere (its dialog) is taken in and the list fetched again.
 */

export const NO_UPLOAD_WORK: UploadWorkValues = { customer_name: '', due_date: '', owner_id: '' }

const mustBeProvided = mustBeProvidedIn('questionnaireListMachine')

const ACCEPTED = ['.xlsx', '.xlsm', '.csv', '.docx', '.pdf']
/** Why a file is refused before any request, in the server's words; null when it may go. */
export function refusal(source: UploadSource, maxUploadMb: number): string | null {
  const dot = source.name.lastIndexOf('.')
  const ext = dot >= 0 ? source.name.slice(dot).toLowerCase() : ''
  if (!ACCEPTED.includes(ext))
    return fillText(QUESTIONNAIRE_TEXTS.unsupported, { name: source.name })
  if (source.size === 0) return fillText(KNOWLEDGE_TEXTS.emptyFile, { name: source.name })
  if (source.size > maxUploadMb * 1024 * 1024)
    return fillText(KNOWLEDGE_TEXTS.fileTooLarge, { name: source.name, limit: maxUploadMb })
  return null
}

/** The rows of files just added: each waits its turn, or is refused at once with the reason. */
const rowsOf = (context: QuestionnaireListContext, files: UploadSource[]): UploadRow[] =>
  files.map((source, index) => {
    const problem = refusal(source, context.maxUploadMb)
    return {
      key: `u${context.nextKey + index}`,
      name: source.name,
      progress: 0,
      status: problem ? 'failed' : 'waiting',
      error: problem,
      source,
      productId: context.productId,
      work: context.uploadWork,
    }
  })

const RUNNING = ['queued', 'analyzing', 'generating']

export const questionnaireListMachine = setup({
  types: {} as QuestionnaireListSchema,
  actors: {
    loadQuestionnaires: fromPromise<QuestionnairePage, QuestionnaireFilters>(
      mustBeProvided('loadQuestionnaires'),
    ),
    deleteQuestionnaires: fromPromise<number, { ids: number[] }>(
      mustBeProvided('deleteQuestionnaires'),
    ),
    uploadQuestionnaire: fromCallback<QuestionnaireListEvents, UploadInput>(
      mustBeProvided('uploadQuestionnaire'),
    ),
  },
  delays: { POLL: FILE_STATUS_POLL_MS },
  guards: {
    anyRunning: (_, page: QuestionnairePage) =>
      page.results.some((item) => RUNNING.includes(item.status)),
    hasWaiting: ({ context }) => context.uploads.some((row) => row.status === 'waiting'),
    nothingSelected: (_, ids: number[]) => ids.length === 0,
  },
  actions: {
    adopt: assign(({ context }, page: QuestionnairePage) => {
      const ids = new Set(page.results.map((item) => item.id))
      return {
        items: page.results,
        count: page.count,
        loaded: true,
        error: null,
        selected: context.selected.filter((id) => ids.has(id)),
      }
    }),
    showListError: assign((_, error: unknown) => ({
      error: errorMessage(error, QUESTIONNAIRE_TEXTS.listFailed),
    })),
    clearError: assign({ error: null }),
    toggle: assign(({ context }, id: number) => ({
      selected: context.selected.includes(id)
        ? context.selected.filter((one) => one !== id)
        : [...context.selected, id],
    })),
    toggleAll: assign(({ context }) => ({
      selected:
        context.selected.length === context.items.length
          ? []
          : context.items.map((item) => item.id),
    })),
    setFilters: assign(({ context }, filters: Partial<QuestionnaireFilters>) => ({
      filters: { ...context.filters, ...filters },
    })),
    clearFilters: assign({ filters: DEFAULT_FILTERS }),
    replaceItem: assign(({ context }, questionnaire: Questionnaire) => ({
      items: context.items.map((item) => (item.id === questionnaire.id ? questionnaire : item)),
    })),
    askDelete: assign((_, ids: number[]) => ({ pendingDelete: ids })),
    forgetDelete: assign({ pendingDelete: [] }),
    emitDeleted: emit((_, count: number) => ({ type: 'deleted' as const, count })),
    dropDeleted: assign(({ context }) => ({
      items: context.items.filter((item) => !context.pendingDelete.includes(item.id)),
      selected: context.selected.filter((id) => !context.pendingDelete.includes(id)),
      pendingDelete: [],
    })),
    emitFailed: emit((_, error: string) => ({ type: 'failed' as const, error })),
    addFiles: assign(({ context }, files: UploadSource[]) => ({
      uploads: [...context.uploads, ...rowsOf(context, files)],
      nextKey: context.nextKey + files.length,
    })),
    chooseProduct: assign((_, productId: number | null) => ({ productId })),
    setUploadWork: assign(({ context }, change: { field: UploadWorkField; value: string }) => ({
      uploadWork: { ...context.uploadWork, [change.field]: change.value },
    })),
    dismissUpload: assign(({ context }, key: string) => ({
      uploads: context.uploads.filter((row) => row.key !== key || row.status === 'uploading'),
    })),
    startNextUpload: assign(({ context }) => {
      const next = context.uploads.find((row) => row.status === 'waiting')
      return {
        uploads: context.uploads.map((row) =>
          row === next ? { ...row, status: 'uploading' as const } : row,
        ),
      }
    }),
    setProgress: assign(({ context }, change: { key: string; progress: number }) => ({
      uploads: context.uploads.map((row) =>
        row.key === change.key ? { ...row, progress: change.progress } : row,
      ),
    })),
    takeUploaded: assign(({ context }, done: { key: string; questionnaire: Questionnaire }) => ({
      uploads: context.uploads.filter((row) => row.key !== done.key),
      items: [
        done.questionnaire,
        ...context.items.filter((item) => item.id !== done.questionnaire.id),
      ],
      count: context.count + 1,
    })),
    emitUploaded: emit((_, questionnaire: Questionnaire) => ({
      type: 'uploaded' as const,
      questionnaire,
    })),
    // the list follows the new questionnaire's analysis
    refresh: raise({ type: 'refresh' }),
    markUploadFailed: assign(({ context }, failed: { key: string; error: string }) => ({
      uploads: context.uploads.map((row) =>
        row.key === failed.key ? { ...row, status: 'failed' as const, error: failed.error } : row,
      ),
    })),
  },
}).createMachine({
  id: 'questionnaireList',
  type: 'parallel',
  context: ({ input }) => ({
    items: [],
    count: 0,
    loaded: false,
    error: null,
    selected: [],
    pendingDelete: [],
    uploads: [],
    uploadWork: NO_UPLOAD_WORK,
    nextKey: 1,
    maxUploadMb: input.maxUploadMb ?? 50,
    filters: DEFAULT_FILTERS,
    productId: null,
  }),
  on: {
    toggle: { actions: { type: 'toggle', params: ({ event }) => event.id } },
    'toggle.all': { actions: 'toggleAll' },
    'filter.set': {
      description: 'A new narrowing fetches the list again at once, cancelling a fetch under way.',
      target: '.list.loading',
      reenter: true,
      actions: { type: 'setFilters', params: ({ event }) => event.filters },
    },
    'filter.clear': { target: '.list.loading', reenter: true, actions: 'clearFilters' },
    'work.saved': {
      target: '.list.loading',
      reenter: true,
      actions: { type: 'replaceItem', params: ({ event }) => event.questionnaire },
    },
  },
  states: {
    list: {
      description: 'The questionnaires, narrowed and ordered by the filters.',
      initial: 'loading',
      states: {
        loading: {
          description: 'The list is fetched with the filters.',
          tags: ['loading'],
          invoke: {
            src: 'loadQuestionnaires',
            input: ({ context }) => context.filters,
            onDone: [
              {
                guard: { type: 'anyRunning', params: ({ event }) => event.output },
                target: 'following',
                actions: { type: 'adopt', params: ({ event }) => event.output },
              },
              { target: 'idle', actions: { type: 'adopt', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'failed',
              actions: {
                type: 'showListError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        idle: {
          description: 'Nothing is analysed or answered: the list waits to be refreshed.',
          on: { refresh: 'loading' },
        },
        following: {
          description:
            'Something is analysed or answered: the list is fetched again after each poll interval.',
          on: { refresh: 'loading' },
          after: { POLL: 'loading' },
        },
        failed: {
          description:
            "'The questionnaires could not be loaded' (or the server's words), and Retry.",
          on: {
            retry: { target: 'loading', actions: 'clearError' },
            refresh: 'loading',
          },
        },
      },
    },
    deletion: {
      description: 'Deleting the chosen questionnaires, behind a confirmation.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Nothing is being deleted.',
          on: {
            'delete.request': [
              { guard: { type: 'nothingSelected', params: ({ event }) => event.ids } },
              {
                target: 'confirming',
                actions: { type: 'askDelete', params: ({ event }) => event.ids },
              },
            ],
          },
        },
        confirming: {
          description: 'The confirmation names how many questionnaires go.',
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: 'forgetDelete' },
          },
        },
        deleting: {
          description: 'The chosen questionnaires are deleted; the page says how many, or why not.',
          tags: ['busy'],
          invoke: {
            src: 'deleteQuestionnaires',
            input: ({ context }) => ({ ids: context.pendingDelete }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'emitDeleted', params: ({ event }) => event.output },
                'dropDeleted',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                {
                  type: 'emitFailed',
                  params: ({ event }) =>
                    errorMessage(event.error, QUESTIONNAIRE_TEXTS.deleteFailed),
                },
                'forgetDelete',
              ],
            },
          },
        },
      },
    },
    upload: {
      description: 'Files added are uploaded one after another, each with its progress bar.',
      initial: 'idle',
      on: {
        'files.add': {
          target: '.checking',
          actions: { type: 'addFiles', params: ({ event }) => event.files },
        },
        'product.choose': {
          actions: { type: 'chooseProduct', params: ({ event }) => event.productId },
        },
        'uploadWork.change': {
          actions: { type: 'setUploadWork', params: ({ event }) => event },
        },
        'upload.dismiss': {
          actions: { type: 'dismissUpload', params: ({ event }) => event.key },
        },
      },
      states: {
        idle: { description: 'No file waits to be uploaded.' },
        checking: {
          description: 'Settles at once: the next waiting file is sent, if any.',
          always: [{ guard: 'hasWaiting', target: 'sending' }, { target: 'idle' }],
        },
        sending: {
          description: 'The next waiting file is uploaded; files added meanwhile wait their turn.',
          entry: 'startNextUpload',
          invoke: {
            src: 'uploadQuestionnaire',
            input: ({ context }) => {
              const row = context.uploads.find((item) => item.status === 'uploading') as UploadRow
              return {
                key: row.key,
                source: row.source,
                productId: row.productId,
                fields: { ...row.work },
              }
            },
          },
          on: {
            'files.add': { actions: { type: 'addFiles', params: ({ event }) => event.files } },
            'upload.progress': { actions: { type: 'setProgress', params: ({ event }) => event } },
            'upload.done': {
              target: 'checking',
              actions: [
                { type: 'takeUploaded', params: ({ event }) => event },
                { type: 'emitUploaded', params: ({ event }) => event.questionnaire },
                'refresh',
              ],
            },
            'upload.failed': {
              target: 'checking',
              actions: [
                { type: 'markUploadFailed', params: ({ event }) => event },
                { type: 'emitFailed', params: ({ event }) => event.error },
              ],
            },
          },
        },
      },
    },
  },
})
