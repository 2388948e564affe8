import { assign, emit, fromPromise, setup } from 'xstate'
import { safeParse } from 'zod/v4/core'
import { errorMessage } from '../../contract/errors.ts'
import {
  KNOWLEDGE_TEXTS,
  type RepositoryFile,
  urlUploadRequestSchema,
} from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * 'Add by URL': the user gives a web page or document address (and tags); Quire queues it and the
 * server fetches it. The address is checked as the server checks it before anything is sent; a
 * refusal keeps the dialog open with the server's words and the input as typed.
 */

export interface AddByUrlContext {
  url: string
  tags: string
  error: string | null
}

export type AddByUrlEvents =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'url.change'; value: string }
  | { type: 'tags.change'; value: string }
  | { type: 'submit' }

export type AddByUrlEmitted = { type: 'added'; file: RepositoryFile }

export interface AddUrlInput {
  url: string
  tags: string[]
}

const mustBeProvided = mustBeProvidedIn('addByUrlMachine')

export const splitTags = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)

const requestOf = (context: AddByUrlContext) => ({
  url: context.url.trim(),
  tags: splitTags(context.tags),
})

/** The first problem with the form in plain words, or null. */
export function urlProblem(context: AddByUrlContext): string | null {
  const result = safeParse(urlUploadRequestSchema, requestOf(context))
  return result.success ? null : (result.error.issues[0]?.message ?? KNOWLEDGE_TEXTS.urlInvalid)
}

const errorOf = (error: unknown) => errorMessage(error, KNOWLEDGE_TEXTS.urlAddFailed)

export const addByUrlMachine = setup({
  types: {
    context: {} as AddByUrlContext,
    events: {} as AddByUrlEvents,
    emitted: {} as AddByUrlEmitted,
  },
  actors: {
    addUrl: fromPromise<RepositoryFile, AddUrlInput>(mustBeProvided('addUrl')),
  },
  guards: { isValid: ({ context }) => urlProblem(context) === null },
  actions: {
    reset: assign({ url: '', tags: '', error: null }),
    setUrl: assign((_, value: string) => ({ url: value, error: null })),
    setTags: assign((_, value: string) => ({ tags: value })),
    showProblem: assign(({ context }) => ({ error: urlProblem(context) })),
    setError: assign((_, error: unknown) => ({ error: errorOf(error) })),
    announce: emit((_, file: RepositoryFile) => ({ type: 'added' as const, file })),
  },
}).createMachine({
  id: 'addByUrl',
  context: { url: '', tags: '', error: null },
  initial: 'closed',
  states: {
    closed: { on: { open: { target: 'editing', actions: 'reset' } } },
    editing: {
      on: {
        close: 'closed',
        'url.change': { actions: { type: 'setUrl', params: ({ event }) => event.value } },
        'tags.change': { actions: { type: 'setTags', params: ({ event }) => event.value } },
        submit: [{ guard: 'isValid', target: 'submitting' }, { actions: 'showProblem' }],
      },
    },
    submitting: {
      tags: 'loading',
      invoke: {
        src: 'addUrl',
        input: ({ context }) => requestOf(context),
        onDone: {
          target: 'closed',
          actions: { type: 'announce', params: ({ event }) => event.output },
        },
        onError: {
          target: 'editing',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
  },
})
