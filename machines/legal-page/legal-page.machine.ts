import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { LEGAL_TEXTS, type LegalDocument, type LegalKind } from '../../contract/legal.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * /terms and /privacy (issue 30): the instance's page is read, then shown; a failed read says why
 * and can be tried again. An operator who publishes the page elsewhere has the server send the
 * browser there before this page loads; should it load anyway, the page links there.
 */

export interface LegalPageContext {
  kind: LegalKind
  document: LegalDocument | null
  error: string | null
}

export const legalPageMachine = setup({
  types: {
    context: {} as LegalPageContext,
    events: {} as { type: 'retry' },
    input: {} as { kind: LegalKind },
  },
  actors: {
    loadDocument: fromPromise<LegalDocument, { kind: LegalKind }>(
      mustBeProvidedIn('legalPageMachine')('loadDocument'),
    ),
  },
}).createMachine({
  id: 'legalPage',
  context: ({ input }) => ({ kind: input.kind, document: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadDocument',
        input: ({ context }) => ({ kind: context.kind }),
        onDone: { target: 'shown', actions: assign({ document: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, LEGAL_TEXTS.loadFailed),
          }),
        },
      },
    },
    shown: {},
    failed: { on: { retry: { target: 'loading', actions: assign({ error: null }) } } },
  },
})
