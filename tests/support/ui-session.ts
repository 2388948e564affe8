import { fromCallback, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { sessionMachine } from '../../machines/session/index.ts'

/**
 * A session still reading its tokens: no profile yet, so the views that read the role offer
 * everything (as to an admin) while the server, as ever, checks each call.
 */
export const readingSession = sessionMachine.provide({
  actors: {
    readSession: fromPromise(() => new Promise(() => {})),
    refreshSession: fromPromise<AccessClaims>(() => Promise.reject(new Error('refused'))),
    logout: fromPromise<void>(async () => {}),
    clearSession: fromPromise<void>(async () => {}),
    authEvents: fromCallback(() => () => {}),
  },
})
