import { assign, fromPromise, setup } from 'xstate'
import type { FileStats } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * The repository's usage line (how many files of how many allowed, and their bytes): loaded when
 * the page opens and again after every upload, delete or added address. A failed load keeps the
 * last figures and shows nothing new; the next change tries again.
 */
export const fileStatsMachine = setup({
  types: {
    context: {} as { stats: FileStats | null },
    events: {} as { type: 'refresh' },
  },
  actors: {
    loadStats: fromPromise<FileStats, void>(mustBeProvidedIn('fileStatsMachine')('loadStats')),
  },
}).createMachine({
  id: 'fileStats',
  context: { stats: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadStats',
        onDone: { target: 'ready', actions: assign({ stats: ({ event }) => event.output }) },
        onError: 'ready',
      },
      on: { refresh: { target: 'loading', reenter: true } },
    },
    ready: { on: { refresh: 'loading' } },
  },
})
