import { createContext, useContext } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { myWorkMachine } from '../../machines/my-work/index.ts'

/**
 * My work, read once for the app (issue 29): the layout runs it (its count is in the sidebar and
 * it is read again after each navigation and each new notification); My work and the home page
 * show the same list. Null outside the signed-in layout.
 */
export type MyWorkActor = ActorRefFrom<typeof myWorkMachine>
export const MyWorkContext = createContext<MyWorkActor | null>(null)
export const useMyWorkActor = () => useContext(MyWorkContext)
