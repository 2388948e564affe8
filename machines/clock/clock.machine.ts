import { assign, setup } from 'xstate'
import { CLOCK_TICK_MS } from '../constants.ts'

/**
 * The page's clock (issue 30): one for the whole app, so that every relative time ("just now",
 * "2 min ago") is worked out again together, every `tick`, and none stays "just now" for good.
 */
export const clockMachine = setup({
  types: { context: {} as { now: number } },
  delays: { tick: CLOCK_TICK_MS },
  actions: { readClock: assign({ now: () => Date.now() }) },
}).createMachine({
  id: 'clock',
  context: () => ({ now: Date.now() }),
  initial: 'ticking',
  states: {
    ticking: {
      description: 'Waits a tick, then reads the time again.',
      after: { tick: { target: 'ticking', reenter: true, actions: 'readClock' } },
    },
  },
})
