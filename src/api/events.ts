/**
 * App-wide auth events raised by the API client and listened to by the session actor: a failed
 * refresh (or none possible) raises `auth-error`.
 */
export type AuthEvent = { type: 'auth-error'; status: number; path: string }

type Listener = (event: AuthEvent) => void
const listeners = new Set<Listener>()

export const authEvents = {
  on(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  emit(event: AuthEvent) {
    for (const listener of [...listeners]) listener(event)
  },
}

/**
 * Raised by the API client for every answer refused at a license limit (code license_limit): the
 * signed-in layout opens 'Choose Your Plan' with the refusal's text.
 */
export type LimitEvent = { type: 'limit-reached'; message: string; limit: string | null }

type LimitListener = (event: LimitEvent) => void
const limitListeners = new Set<LimitListener>()

export const limitEvents = {
  on(listener: LimitListener): () => void {
    limitListeners.add(listener)
    return () => limitListeners.delete(listener)
  },
  emit(event: LimitEvent) {
    for (const listener of [...limitListeners]) listener(event)
  },
}
