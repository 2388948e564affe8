import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { PRODUCT_TEXTS, type Product } from '../../contract/products.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type { AssignProductInput, ProductChoiceSchema } from './product-choice.types.ts'

/**
 * The products a select offers (issue 38), read once with the view: at upload, in the Q&A
 * editor, in a questionnaire's header and on a file's page. Given a target (a questionnaire or a
 * file), choosing a product sets it there at once (products/assign) and remembers what was
 * chosen; a refusal keeps the server's reason and the earlier product.
 */

const mustBeProvided = mustBeProvidedIn('productChoiceMachine')

export const productChoiceMachine = setup({
  types: {} as ProductChoiceSchema,
  actors: {
    loadProductChoices: fromPromise<Product[], void>(mustBeProvided('loadProductChoices')),
    assignProduct: fromPromise<void, AssignProductInput>(mustBeProvided('assignProduct')),
  },
  actions: {
    setProducts: assign((_, products: Product[]) => ({ products })),
    choose: assign((_, productId: number | null) => ({ pending: productId, error: null })),
    setAssigned: assign(({ context }) => ({ assigned: context.pending })),
    setError: assign((_, error: unknown) => ({
      error: errorMessage(error, PRODUCT_TEXTS.choiceFailed),
    })),
    emitAssigned: emit(({ context }) => ({
      type: 'assigned' as const,
      productId: context.pending,
    })),
  },
  guards: {
    hasTarget: ({ context }) => context.target !== null,
  },
}).createMachine({
  id: 'productChoice',
  type: 'parallel',
  context: ({ input }) => ({
    target: input?.target ?? null,
    products: null,
    assigned: undefined,
    pending: null,
    error: null,
  }),
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          description: 'Reads the organisation’s products.',
          tags: 'loading',
          invoke: {
            id: 'loadProductChoices',
            src: 'loadProductChoices',
            onDone: {
              target: 'ready',
              actions: { type: 'setProducts', params: ({ event }) => event.output },
            },
            onError: 'failed',
          },
        },
        ready: {},
        failed: {
          description: 'The products could not be read: the select stays hidden; retry.',
          on: { retry: 'loading' },
        },
      },
    },
    choice: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            choose: {
              guard: 'hasTarget',
              target: 'assigning',
              actions: { type: 'choose', params: ({ event }) => event.productId },
            },
          },
        },
        assigning: {
          description: 'Sets the target’s product; the select shows the choice meanwhile.',
          tags: 'busy',
          invoke: {
            id: 'assignProduct',
            src: 'assignProduct',
            input: ({ context }) => ({
              kind: context.target?.kind ?? 'file',
              id: context.target?.id ?? 0,
              productId: context.pending,
            }),
            onDone: { target: 'idle', actions: ['setAssigned', 'emitAssigned'] },
            onError: {
              target: 'idle',
              actions: {
                type: 'setError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
      },
    },
  },
})
