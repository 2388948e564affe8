import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { fillText } from '../../contract/knowledge.ts'
import { PRODUCT_TEXTS, type Product } from '../../contract/products.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  ProductAction,
  ProductBody,
  ProductForm,
  ProductsContext,
  ProductsEmitted,
  ProductsEvents,
  SaveProductInput,
} from './products.types.ts'

const mustBeProvided = mustBeProvidedIn('productsMachine')

const EMPTY_FORM: ProductForm = { name: '', aliases: '', description: '' }

/** The aliases typed as 'Studio, Arc' (or one a line), each once, in their order. */
export function aliasesOf(text: string): string[] {
  const seen = new Set<string>()
  const aliases: string[] = []
  for (const part of text.split(/[,\n]/)) {
    const alias = part.trim()
    if (alias && !seen.has(alias.toLowerCase())) {
      seen.add(alias.toLowerCase())
      aliases.push(alias)
    }
  }
  return aliases
}

/** What the form sends: the server trims, checks lengths and says why it refuses. */
export const bodyOf = (form: ProductForm): ProductBody => ({
  name: form.name.trim(),
  aliases: aliasesOf(form.aliases),
  description: form.description.trim(),
})

const formOf = (product: Product): ProductForm => ({
  name: product.name,
  aliases: product.aliases.join(', '),
  description: product.description,
})

const idOf = (action: ProductAction | null) => (action && 'id' in action ? action.id : null)

/**
 * Settings → Products: the organisation's products with what speaks for each; adding one, editing
 * its name, aliases and description, and deleting it after a confirmation (what spoke for it
 * becomes 'All products'). A refusal keeps the dialog open with the server's reason.
 */
export const productsMachine = setup({
  types: {
    context: {} as ProductsContext,
    events: {} as ProductsEvents,
    emitted: {} as ProductsEmitted,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadProducts: fromPromise<Product[], void>(mustBeProvided('loadProducts')),
    saveProduct: fromPromise<Product, SaveProductInput>(mustBeProvided('saveProduct')),
    deleteProduct: fromPromise<void, { id: number }>(mustBeProvided('deleteProduct')),
  },
  actions: {
    setProducts: assign((_, products: Product[]) => ({
      products,
      loaded: true,
      listError: null,
    })),
    setListError: assign((_, error: unknown) => ({
      listError: errorMessage(error, PRODUCT_TEXTS.listFailed),
    })),
    openAdd: assign({
      action: { kind: 'add' } as ProductAction,
      form: EMPTY_FORM,
      actionError: null,
    }),
    openEdit: assign(({ context }, id: number) => {
      const product = context.products.find((item) => item.id === id)
      return {
        action: { kind: 'edit', id } as ProductAction,
        form: product ? formOf(product) : EMPTY_FORM,
        actionError: null,
      }
    }),
    askDelete: assign((_, id: number) => ({
      action: { kind: 'delete', id } as ProductAction,
      actionError: null,
    })),
    editForm: assign(({ context }, change: Partial<ProductForm>) => ({
      form: { ...context.form, ...change },
      actionError: null,
    })),
    /** A saved product takes its place in the list (a new one in name order). */
    keepSaved: assign(({ context }, saved: Product) => ({
      products: [...context.products.filter((item) => item.id !== saved.id), saved].sort((a, b) =>
        a.name.localeCompare(b.name),
      ),
    })),
    dropDeleted: assign(({ context }) => ({
      products: context.products.filter((item) => item.id !== idOf(context.action)),
    })),
    setActionError: assign((_, error: unknown) => ({
      actionError: errorMessage(error, PRODUCT_TEXTS.actionFailed),
    })),
    needName: assign({ actionError: PRODUCT_TEXTS.nameRequired }),
    clearAction: assign({ action: null, actionError: null, form: EMPTY_FORM }),
    emitChanged: emit((_, notice: string) => ({ type: 'changed' as const, notice })),
  },
  guards: {
    hasName: ({ context }) => context.form.name.trim().length > 0,
  },
}).createMachine({
  id: 'products',
  context: {
    products: [],
    loaded: false,
    listError: null,
    form: EMPTY_FORM,
    action: null,
    actionError: null,
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the products, with how many files, answers and questionnaires each has.',
      tags: 'loading',
      invoke: {
        id: 'loadProducts',
        src: 'loadProducts',
        onDone: {
          target: 'ready',
          actions: { type: 'setProducts', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setListError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    failed: {
      description: 'Says the products could not be read; retry reads them again.',
      on: { retry: 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'add.open': { target: 'editing', actions: 'openAdd' },
            'edit.open': {
              target: 'editing',
              actions: { type: 'openEdit', params: ({ event }) => event.id },
            },
            'delete.ask': {
              target: 'confirmingDelete',
              actions: { type: 'askDelete', params: ({ event }) => event.id },
            },
          },
        },
        editing: {
          description: 'The dialog: name, aliases and description of a new or existing product.',
          on: {
            'form.edit': { actions: { type: 'editForm', params: ({ event }) => event.change } },
            'form.submit': [{ guard: 'hasName', target: 'saving' }, { actions: 'needName' }],
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        saving: {
          description: 'Adds or changes the product; a refusal goes back to the dialog with why.',
          tags: 'busy',
          invoke: {
            id: 'saveProduct',
            src: 'saveProduct',
            input: ({ context }) => ({ id: idOf(context.action), body: bodyOf(context.form) }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'keepSaved', params: ({ event }) => event.output },
                {
                  type: 'emitChanged',
                  params: ({ context, event }) =>
                    fillText(
                      context.action?.kind === 'add' ? PRODUCT_TEXTS.added : PRODUCT_TEXTS.saved,
                      {
                        name: event.output.name,
                      },
                    ),
                },
                'clearAction',
              ],
            },
            onError: {
              target: 'editing',
              actions: {
                type: 'setActionError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        confirmingDelete: {
          description: 'Asks before deleting: what spoke for the product becomes All products.',
          on: {
            'delete.confirm': 'deleting',
            'dialog.close': { target: 'idle', actions: 'clearAction' },
          },
        },
        deleting: {
          tags: 'busy',
          invoke: {
            id: 'deleteProduct',
            src: 'deleteProduct',
            input: ({ context }) => ({ id: idOf(context.action) ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'emitChanged',
                  params: ({ context }) =>
                    fillText(PRODUCT_TEXTS.deleted, {
                      name:
                        context.products.find((item) => item.id === idOf(context.action))?.name ??
                        PRODUCT_TEXTS.unnamed,
                    }),
                },
                'dropDeleted',
                'clearAction',
              ],
            },
            onError: {
              target: 'confirmingDelete',
              actions: {
                type: 'setActionError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
      },
    },
  },
})
