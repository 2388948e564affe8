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
