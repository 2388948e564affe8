import { assign, emit, fromCallback, fromPromise, raise, setup } from 'xstate'
import { fillText, KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'
import { QUESTIONNAIRE_TEXTS, type Questionnaire } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_STATUS_POLL_MS } from '../constants.ts'
import { DEFAULT_FILTERS, type QuestionnaireFilters } from './filters.ts'

/**
 * The Questionnaires page: the list (followed while any questionnaire is analysed or answered),
 * uploads one file after another with a progress bar each, and batch deletion behind a
 * confirmation. The list is narrowed and ordered by its filters (issue 29); a questionnaire whose
 * work changed elsewhere (its dialog) is taken in and the list fetched again.
 */

export interface UploadSource {
  name: string
  size: number
}

export interface UploadRow {
  key: string
  name: string
  progress: number
  status: 'waiting' | 'uploading' | 'failed'
  error: string | null
  source: UploadSource
  /** The product it is for, as chosen when it was added (issue 38); null: all products. */
  productId: number | null
  /** The work asked with it (issue 39), as it stood when it was added. */
  work: UploadWorkValues
}

/** What the upload asks about the work (issue 39), as typed: each optional, blank for none. */
export interface UploadWorkValues {
  customer_name: string
  due_date: string
  owner_id: string
}
export type UploadWorkField = keyof UploadWorkValues
export const NO_UPLOAD_WORK: UploadWorkValues = { customer_name: '', due_date: '', owner_id: '' }

export interface QuestionnaireListContext {
  items: Questionnaire[]
  count: number
  loaded: boolean
  error: string | null
  selected: number[]
  pendingDelete: number[]
  uploads: UploadRow[]
  nextKey: number
  maxUploadMb: number
  filters: QuestionnaireFilters
  /** The product the questionnaires added next are for (issue 38); null: all products. */
  productId: number | null
  /** The customer, due date and owner of the questionnaires added next (issue 39). */
  uploadWork: UploadWorkValues
}

export type QuestionnaireListEvents =
  | { type: 'retry' }
  | { type: 'refresh' }
  | { type: 'toggle'; id: number }
  | { type: 'toggle.all' }
  | { type: 'delete.request'; ids: number[] }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'files.add'; files: UploadSource[] }
  | { type: 'upload.dismiss'; key: string }
  /** The product the questionnaires added next are for (null: all products). */
  | { type: 'product.choose'; productId: number | null }
  /** The customer, due date or owner of the questionnaires added next (issue 39). */
  | { type: 'uploadWork.change'; field: UploadWorkField; value: string }
  | { type: 'filter.set'; filters: Partial<QuestionnaireFilters> }
  | { type: 'filter.clear' }
  | { type: 'work.saved'; questionnaire: Questionnaire }
  /** Sent by the upload actor. */
  | { type: 'upload.progress'; key: string; progress: number }
  | { type: 'upload.done'; key: string; questionnaire: Questionnaire }
  | { type: 'upload.failed'; key: string; error: string }

export type QuestionnaireListEmitted =
  | { type: 'deleted'; count: number }
  | { type: 'uploaded'; questionnaire: Questionnaire }
  | { type: 'failed'; error: string }

export interface UploadInput {
  key: string
  source: UploadSource
  productId: number | null
  /** Sent as the upload's form fields; blank ones are left out. */
  fields: Record<string, string>
}

const mustBeProvided = mustBeProvidedIn('questionnaireListMachine')
const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

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

const RUNNING = ['queued', 'analyzing', 'generating']

export const questionnaireListMachine = setup({
  types: {
    context: {} as QuestionnaireListContext,
    events: {} as QuestionnaireListEvents,
    input: {} as { maxUploadMb?: number },
    emitted: {} as QuestionnaireListEmitted,
  },
  actors: {
    loadQuestionnaires: fromPromise<
      { count: number; results: Questionnaire[] },
      QuestionnaireFilters
    >(mustBeProvided('loadQuestionnaires')),
    deleteQuestionnaires: fromPromise<number, { ids: number[] }>(
      mustBeProvided('deleteQuestionnaires'),
    ),
    uploadQuestionnaire: fromCallback<QuestionnaireListEvents, UploadInput>(
      mustBeProvided('uploadQuestionnaire'),
    ),
  },
  delays: { POLL: FILE_STATUS_POLL_MS },
  guards: {
    anyRunning: ({ context }) => context.items.some((item) => RUNNING.includes(item.status)),
    hasWaiting: ({ context }) => context.uploads.some((row) => row.status === 'waiting'),
    nothingSelected: ({ event }) => (event as { ids: number[] }).ids.length === 0,
  },
  actions: {
    adopt: assign(({ context, event }) => {
      const output = (event as unknown as { output: { count: number; results: Questionnaire[] } })
        .output
      const ids = new Set(output.results.map((item) => item.id))
      return {
        items: output.results,
        count: output.count,
        loaded: true,
        error: null,
        selected: context.selected.filter((id) => ids.has(id)),
      }
    }),
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
    toggle: {
      actions: assign(({ context, event }) => ({
        selected: context.selected.includes(event.id)
          ? context.selected.filter((id) => id !== event.id)
          : [...context.selected, event.id],
      })),
    },
    // a new narrowing fetches the list again at once, cancelling a fetch under way
    'filter.set': {
      target: '.list.loading',
      reenter: true,
      actions: assign(({ context, event }) => ({
        filters: { ...context.filters, ...event.filters },
      })),
    },
    'filter.clear': {
      target: '.list.loading',
      reenter: true,
      actions: assign({ filters: DEFAULT_FILTERS }),
    },
    'work.saved': {
      target: '.list.loading',
      reenter: true,
      actions: assign(({ context, event }) => ({
        items: context.items.map((item) =>
          item.id === event.questionnaire.id ? event.questionnaire : item,
        ),
      })),
    },
    'toggle.all': {
      actions: assign(({ context }) => ({
        selected:
          context.selected.length === context.items.length
            ? []
            : context.items.map((item) => item.id),
      })),
    },
  },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'loadQuestionnaires',
            input: ({ context }) => context.filters,
            onDone: [
              { guard: 'anyRunning', target: 'following', actions: 'adopt' },
              { target: 'idle', actions: 'adopt' },
            ],
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({
                error: messageOf(event.error, 'The questionnaires could not be loaded'),
              })),
            },
          },
        },
        idle: { on: { refresh: 'loading' } },
        // while something is analysed or answered, the list is fetched again and again
        following: {
          on: { refresh: 'loading' },
          after: { POLL: 'loading' },
        },
        failed: {
          on: {
            retry: { target: 'loading', actions: assign({ error: null }) },
            refresh: 'loading',
          },
        },
      },
    },
    deletion: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'delete.request': [
              { guard: 'nothingSelected' },
              {
                target: 'confirming',
                actions: assign(({ event }) => ({ pendingDelete: event.ids })),
              },
            ],
          },
        },
        confirming: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: assign({ pendingDelete: [] }) },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            src: 'deleteQuestionnaires',
            input: ({ context }) => ({ ids: context.pendingDelete }),
            onDone: {
              target: 'idle',
              actions: [
                emit(({ event }) => ({ type: 'deleted' as const, count: event.output })),
                assign(({ context }) => ({
                  items: context.items.filter((item) => !context.pendingDelete.includes(item.id)),
                  selected: context.selected.filter((id) => !context.pendingDelete.includes(id)),
                  pendingDelete: [],
                })),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ event }) => ({
                  type: 'failed' as const,
                  error: messageOf(event.error, 'The questionnaires could not be deleted'),
                })),
                assign({ pendingDelete: [] }),
              ],
            },
          },
        },
      },
    },
    upload: {
      initial: 'idle',
      on: {
        'files.add': {
          target: '.checking',
          actions: assign(({ context, event }) => {
            const rows: UploadRow[] = event.files.map((source, index) => {
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
            return {
              uploads: [...context.uploads, ...rows],
              nextKey: context.nextKey + event.files.length,
            }
          }),
        },
        'product.choose': { actions: assign({ productId: ({ event }) => event.productId }) },
        'uploadWork.change': {
          actions: assign({
            uploadWork: ({ context, event }) => ({
              ...context.uploadWork,
              [event.field]: event.value,
            }),
          }),
        },
        'upload.dismiss': {
          actions: assign(({ context, event }) => ({
            uploads: context.uploads.filter(
              (row) => row.key !== event.key || row.status === 'uploading',
            ),
          })),
        },
      },
      states: {
        idle: {},
        checking: {
          always: [{ guard: 'hasWaiting', target: 'sending' }, { target: 'idle' }],
        },
        sending: {
          entry: assign(({ context }) => {
            const next = context.uploads.find((row) => row.status === 'waiting')
            return {
              uploads: context.uploads.map((row) =>
                row === next ? { ...row, status: 'uploading' as const } : row,
              ),
            }
          }),
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
            'files.add': {
              actions: assign(({ context, event }) => ({
                uploads: [
                  ...context.uploads,
                  ...event.files.map((source, index) => {
                    const problem = refusal(source, context.maxUploadMb)
                    return {
                      key: `u${context.nextKey + index}`,
                      name: source.name,
                      progress: 0,
                      status: problem ? ('failed' as const) : ('waiting' as const),
                      error: problem,
                      source,
                      productId: context.productId,
                      work: context.uploadWork,
                    }
                  }),
                ],
                nextKey: context.nextKey + event.files.length,
              })),
            },
            'upload.progress': {
              actions: assign(({ context, event }) => ({
                uploads: context.uploads.map((row) =>
                  row.key === event.key ? { ...row, progress: event.progress } : row,
                ),
              })),
            },
            'upload.done': {
              target: 'checking',
              actions: [
                assign(({ context, event }) => ({
                  uploads: context.uploads.filter((row) => row.key !== event.key),
                  items: [
                    event.questionnaire,
                    ...context.items.filter((item) => item.id !== event.questionnaire.id),
                  ],
                  count: context.count + 1,
                })),
                emit(({ event }) => ({
                  type: 'uploaded' as const,
                  questionnaire: event.questionnaire,
                })),
                // the list follows the new questionnaire's analysis
                raise({ type: 'refresh' }),
              ],
            },
            'upload.failed': {
              target: 'checking',
              actions: [
                assign(({ context, event }) => ({
                  uploads: context.uploads.map((row) =>
                    row.key === event.key
                      ? { ...row, status: 'failed' as const, error: event.error }
                      : row,
                  ),
                })),
                emit(({ event }) => ({ type: 'failed' as const, error: event.error })),
              ],
            },
          },
        },
      },
    },
  },
})
