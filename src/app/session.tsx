import { createActorContext } from '@xstate/react'
import { sessionMachine } from '../../machines/session/index.ts'
import { sessionActors } from './session-actors.ts'

/** The one app-wide session actor. */
export const SessionContext = createActorContext(
  sessionMachine.provide({ actors: sessionActors() }),
)

export type SessionActorRef = ReturnType<typeof SessionContext.useActorRef>
