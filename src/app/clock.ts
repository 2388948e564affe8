import { useSelector } from '@xstate/react'
import { type Actor, createActor } from 'xstate'
import { clockMachine, selectNow } from '../../machines/clock/index.ts'

/**
 * The app's one clock (issue 30), started by the first view that reads the time: every relative
 * time on screen re-renders on its tick, together, and there is a single timer however many
 * times are shown.
 */
let clock: Actor<typeof clockMachine> | null = null
const theClock = () => {
  clock ??= createActor(clockMachine).start()
  return clock
}

/** The time now, as of the clock's last tick. */
export const useNow = () => useSelector(theClock(), selectNow)
