import type { Context } from 'hono'
import { ERROR_CODES } from '../../contract/errors.ts'
import { RESYNC_EVENT, STREAM_TEXTS } from '../../contract/streams.ts'
import type { AuthContext } from '../auth/context.ts'
import type { Authenticator } from '../auth/middleware.ts'
import type { Logger } from '../logger.ts'
import { apiError } from './errors.ts'
import { type EventHub, type StreamControl, streamEvents } from './event-hub.ts'

/**
 * Every live stream a node holds (issue 37): questionnaire events and notifications. It keeps
 * one person, one sign-in or one questionnaire from holding more than their share (429 with
 * Retry-After beyond it), and it decides for all of them whether their people may still listen:
 * - every RECHECK_MS, each distinct session with a stream open is authenticated once (not once
 *   per stream, not once per event), and the streams of a session that ended are closed;
 * - the database announces a session ended or a person changed (migration 0027's triggers, on
 *   `user:<id>`): that person's streams are checked again at once, so a sign-out or a removal
 *   closes them within moments on every node;
 * - when the event listener comes back after losing its connection, every stream is sent
 *   `resync`: what it missed meanwhile must be read again.
 */

export interface StreamLimits {
  perPerson: number
  perQuestionnaire: number
  perSession: number
  perNode: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perPerson: 30,
  perQuestionnaire: 10,
  perSession: 20,
  perNode: 5_000,
}

/** How long a session is trusted between two checks, for all its streams at once. */
export const RECHECK_MS = 5_000
/** Seconds a refused stream is told to wait before trying again. */
export const STREAM_RETRY_AFTER_S = 30

interface Entry {
  auth: AuthContext
  token: string
  /** `questionnaire:<id>`, or `notifications`. */
  scope: string
  control?: StreamControl
}

type StreamOptions = Omit<Parameters<typeof streamEvents>[1], 'hub' | 'control'>

export function createStreamRegistry(options: {
  hub: EventHub
  auth: Authenticator
  logger: Logger
  limits?: Partial<StreamLimits>
  recheckMs?: number
}) {
  const limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits }
  const log = options.logger.child({ component: 'streams' })
  const entries = new Set<Entry>()
  /** Each person's streams, and the hub subscription that hears of their sessions ending. */
  const people = new Map<number, { entries: Set<Entry>; off: () => void }>()

  const refuse = (why: string) => {
    log.warn({ why }, 'live stream refused: over its cap')
    return apiError(
      429,
      STREAM_TEXTS.tooMany,
      { code: ERROR_CODES.rateLimited },
      { 'Retry-After': String(STREAM_RETRY_AFTER_S) },
    )
  }

  function admit(auth: AuthContext, scope: string) {
    if (entries.size >= limits.perNode) throw refuse('node')
    const mine = people.get(auth.user.id)?.entries
    if (!mine) return
    if (mine.size >= limits.perPerson) throw refuse('person')
    let session = 0
    let here = 0
    for (const entry of mine) {
      if (entry.auth.sid === auth.sid) session += 1
      if (entry.scope === scope) here += 1
    }
    if (session >= limits.perSession) throw refuse('session')
    if (scope !== 'notifications' && here >= limits.perQuestionnaire) throw refuse('questionnaire')
  }

  /** Checks the sessions behind `list` once each; closes the streams whose session ended. */
  let checking = Promise.resolve()
  function verify(list: Iterable<Entry>) {
    const bySession = new Map<string, Entry[]>()
    for (const entry of list) {
      const group = bySession.get(entry.token) ?? []
      group.push(entry)
      bySession.set(entry.token, group)
    }
    checking = checking.then(async () => {
      for (const [token, group] of bySession) {
        const first = group[0] as Entry
        let again: AuthContext | null
        try {
          again = await options.auth.authenticate(token)
        } catch {
          // the database is away: the streams stay open, the next check decides
          continue
        }
        const still = again?.user.id === first.auth.user.id && again.org.id === first.auth.org.id
        if (!still) for (const entry of group) entry.control?.stop()
      }
    })
    return checking
  }

  // a pass still running when the next is due (a slow database) is not doubled
  let sweeping = false
  const timer = setInterval(() => {
    if (!entries.size || sweeping) return
    sweeping = true
    void verify(entries).finally(() => {
      sweeping = false
    })
  }, options.recheckMs ?? RECHECK_MS)
  timer.unref()

  const offReconnect = options.hub.onReconnect(() => {
    for (const entry of entries) void entry.control?.send(RESYNC_EVENT, {}).catch(() => {})
  })

  function add(entry: Entry) {
    entries.add(entry)
    const id = entry.auth.user.id
    let person = people.get(id)
    if (!person) {
      const created = {
        entries: new Set<Entry>(),
        off: options.hub.subscribe(`user:${id}`, (event) => {
          if (event.type === 'session-ended') void verify([...created.entries])
        }),
      }
      people.set(id, created)
      person = created
    }
    person.entries.add(entry)
  }

  function remove(entry: Entry) {
    entries.delete(entry)
    const id = entry.auth.user.id
    const person = people.get(id)
    if (!person) return
    person.entries.delete(entry)
    if (!person.entries.size) {
      person.off()
      people.delete(id)
    }
  }

  return {
    limits,
    /** Throws 429 when `auth` may not open another stream on `scope`. */
    admit,
    /** Opens a stream for `auth` (admitted first), kept in the registry until it closes. */
    open(c: Context, auth: AuthContext, token: string, scope: string, stream: StreamOptions) {
      admit(auth, scope)
      const entry: Entry = { auth, token, scope }
      add(entry)
      return streamEvents(c, {
        ...stream,
        hub: options.hub,
        control: (control) => {
          entry.control = control
        },
        onClose: async () => {
          remove(entry)
          await stream.onClose?.()
        },
      })
    },
    /** Open streams on this node, for health and tests. */
    get size() {
      return entries.size
    },
    close() {
      clearInterval(timer)
      offReconnect()
      for (const entry of entries) entry.control?.stop()
    },
  }
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>
