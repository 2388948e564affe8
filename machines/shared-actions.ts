import { errorMessage } from '../contract/errors.ts'
import { streamPausedDelay, streamRetryDelay } from './constants.ts'

/**
 * What several flows' named actions share (the actions and guards of their `setup()`): each chart
 * stays its own and literal, the logic is written once.
 */

/** The form with a change merged in, and the error cleared (the change answers it). */
export const editedForm = <TForm>(form: TForm, change: Partial<TForm>) => ({
  form: { ...form, ...change },
  error: null,
})

/** The error a failed call's event carries, in its own words or the fallback's. */
export const failureText = (event: object, fallback: string) =>
  errorMessage(thrownBy(event), fallback)

/** What a failed call's event carries (an invoked actor's error), for a named action to word. */
export const thrownBy = (event: object): unknown => ('error' in event ? event.error : undefined)

/**
 * What a finished call's event carries (an invoked actor's output), for a named action or guard
 * that several of a state's onDone transitions share to read without params.
 */
export const outputOf = (event: object): unknown => ('output' in event ? event.output : undefined)

/**
 * A list's query searching for what was typed, from its first page. The text is the
 * 'search.change' event's q, read by name, so that a list's search transition is one line.
 */
export const searched = <TQuery>(query: TQuery, event: object) => {
  const q = 'q' in event && typeof event.q === 'string' ? event.q : ''
  return { query: { ...query, q, page: 1 } }
}

/** What a machine that follows a live stream keeps of its reconnections. */
interface StreamRetries {
  /** Reconnections tried since the stream was last open. */
  attempt: number
  /** Seconds the server asked to wait after refusing the stream. */
  retryAfterS: number
}

/**
 * The named delays of a live stream: RECONNECT after a loss (a back-off that grows with each
 * attempt), PAUSED after a refusal (the wait the server named).
 */
export const streamDelays = {
  RECONNECT: ({ context }: { context: StreamRetries }) => streamRetryDelay(context.attempt),
  PAUSED: ({ context }: { context: StreamRetries }) => streamPausedDelay(context.retryAfterS),
}

/** The stream opened again after a loss (what came meanwhile is to be read again). */
export const reconnected = ({ context }: { context: StreamRetries }) => context.attempt > 0
