import { assign, emit, fromPromise, setup } from 'xstate'
import { safeParse } from 'zod/v4/core'
import { errorMessage } from '../../contract/errors.ts'
import { dataItemCreateSchema, qaItemCreateSchema } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { thrownBy } from '../shared-actions.ts'
import type {
  ItemEditorContext,
  ItemEditorEmitted,
  ItemEditorEvents,
  ItemField,
  ItemMode,
  ItemValues,
  SaveItemInput,
} from './item-editor.types.ts'

export type * from './item-editor.types.ts'

/**
 * The knowledge-base item editor: add or edit a Q&A item (question, answer, dropdown value, tags,
 * source, owner and review cycle) or a data item (title, value, tags, source), and delete one
 * behind a confirmation. Fields are checked with the contract's own rules before anything is sent.
 */

const EMPTY: ItemValues = {
  question: '',
  answer: '',
  dropdown_value: '',
  title: '',
  value: '',
  tags: '',
  source: '',
  owner_id: '',
  review_cycle_days: '',
  product_id: '',
}

/** The editor closed, and a new item's form as it opens. */
const BLANK: ItemEditorContext = {
  mode: 'qa',
  id: null,
  values: EMPTY,
  errors: {},
  failure: null,
  owner: null,
  ownCycle: false,
}

const mustBeProvided = mustBeProvidedIn('itemEditorMachine')

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)

export function payload(context: ItemEditorContext): SaveItemInput {
  const v = context.values
  const common = { tags: tagsOf(v.tags), source: v.source.trim() || null }
  const ownerId = v.owner_id ? Number(v.owner_id) : null
  const ownerChanged = context.id === null || ownerId !== (context.owner?.id ?? null)
  return context.mode === 'qa'
    ? {
        mode: 'qa',
        id: context.id,
        body: {
          question: v.question,
          answer: v.answer,
          dropdown_value: v.dropdown_value.trim() || null,
          ...common,
          ...(ownerChanged && { owner_id: ownerId }),
          review_cycle_days: context.ownCycle ? Number(v.review_cycle_days.trim()) : null,
          product_id: v.product_id ? Number(v.product_id) : null,
        },
      }
    : { mode: 'data', id: context.id, body: { title: v.title, value: v.value, ...common } }
}

/** Each field's first problem, in the contract's words. */
export function check(context: ItemEditorContext): Partial<Record<ItemField, string>> {
  const input = payload(context)
  const result =
    input.mode === 'qa'
      ? safeParse(qaItemCreateSchema, input.body)
      : safeParse(dataItemCreateSchema, input.body)
  if (result.success) return {}
  const errors: Partial<Record<ItemField, string>> = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as ItemField
    errors[field] ??= issue.message
  }
  return errors
}

const errorOf = (error: unknown) =>
  errorMessage(error, 'The item could not be saved. Please try again.')

export const itemEditorMachine = setup({
  types: {
    context: {} as ItemEditorContext,
    events: {} as ItemEditorEvents,
    emitted: {} as ItemEditorEmitted,
  },
  actors: {
    saveItem: fromPromise<void, SaveItemInput>(mustBeProvided('saveItem')),
    deleteItem: fromPromise<void, { mode: ItemMode; id: number }>(mustBeProvided('deleteItem')),
  },
  guards: { isValid: ({ context }) => Object.keys(check(context)).length === 0 },
  actions: {
    startCreate: assign((_, mode: ItemMode) => ({ ...BLANK, mode })),
    startEdit: assign((_, event: Extract<ItemEditorEvents, { type: 'edit' }>) => ({
      mode: event.mode,
      id: event.item.id,
      errors: {},
      failure: null,
      owner:
        event.mode === 'qa' && event.item.owner_id !== null
          ? { id: event.item.owner_id, name: event.item.owner?.name ?? 'Current owner' }
          : null,
      ownCycle: event.mode === 'qa' && !event.item.review_cycle_inherited,
      values:
        event.mode === 'qa'
          ? {
              ...EMPTY,
              question: event.item.question,
              answer: event.item.answer,
              dropdown_value: event.item.dropdown_value ?? '',
              tags: event.item.tags.join(', '),
              source: event.item.source ?? '',
              owner_id: event.item.owner_id === null ? '' : String(event.item.owner_id),
              review_cycle_days: event.item.review_cycle_inherited
                ? ''
                : String(event.item.review_cycle_days),
              product_id: event.item.product_id ? String(event.item.product_id) : '',
            }
          : {
              ...EMPTY,
              title: event.item.title,
              value: event.item.value,
              tags: event.item.tags.join(', '),
              source: event.item.source ?? '',
            },
    })),
    change: assign(({ context }, params: { field: ItemField; value: string }) => ({
      values: { ...context.values, [params.field]: params.value },
      errors: { ...context.errors, [params.field]: undefined },
    })),
    setOwnCycle: assign(({ context }, params: { own: boolean; days?: number }) => ({
      ownCycle: params.own,
      values:
        params.own && !context.values.review_cycle_days && params.days
          ? { ...context.values, review_cycle_days: String(params.days) }
          : context.values,
      errors: { ...context.errors, review_cycle_days: undefined },
    })),
    showErrors: assign(({ context }) => ({ errors: check(context) })),
    askDelete: assign((_, params: { mode: ItemMode; id: number }) => ({
      mode: params.mode,
      id: params.id,
      failure: null,
    })),
    setFailure: assign(({ event }) => ({ failure: errorOf(thrownBy(event)) })),
    announceSaved: emit(({ context }) => ({ type: 'saved' as const, mode: context.mode })),
    announceDeleted: emit(({ context }) => ({ type: 'deleted' as const, mode: context.mode })),
  },
}).createMachine({
  id: 'itemEditor',
  context: BLANK,
  initial: 'closed',
  states: {
    closed: {
      on: {
        create: {
          target: 'editing',
          actions: { type: 'startCreate', params: ({ event }) => event.mode },
        },
        edit: { target: 'editing', actions: { type: 'startEdit', params: ({ event }) => event } },
        'delete.request': {
          target: 'confirmingDelete',
          actions: { type: 'askDelete', params: ({ event }) => event },
        },
      },
    },
    editing: {
      on: {
        close: 'closed',
        change: { actions: { type: 'change', params: ({ event }) => event } },
        'cycle.own': { actions: { type: 'setOwnCycle', params: ({ event }) => event } },
        submit: [{ guard: 'isValid', target: 'saving' }, { actions: 'showErrors' }],
      },
    },
    saving: {
      tags: 'loading',
      invoke: {
        src: 'saveItem',
        input: ({ context }) => payload(context),
        onDone: { target: 'closed', actions: 'announceSaved' },
        onError: { target: 'editing', actions: 'setFailure' },
      },
    },
    confirmingDelete: {
      on: { 'delete.confirm': 'deleting', 'delete.cancel': 'closed' },
    },
    deleting: {
      tags: 'loading',
      invoke: {
        src: 'deleteItem',
        input: ({ context }) => ({ mode: context.mode, id: context.id ?? 0 }),
        onDone: { target: 'closed', actions: 'announceDeleted' },
        onError: { target: 'confirmingDelete', actions: 'setFailure' },
      },
    },
  },
})
