import { randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import pg from 'pg'
import type { Database } from '../db/index.ts'
import type { Logger } from '../logger.ts'

/**
 * Live events across nodes (issue 29): a change is announced with PostgreSQL's NOTIFY on one
 * channel, inside the transaction that made it (so nothing is announced for a change that rolled
 * back), and every node LISTENs and hands each event to its own subscribers by key
 * (`questionnaire:<id>`, `user:<id>`). Events carry ids and kinds, never content: a client reads
 * what changed through the API, where its role is checked as on every call.
 */

export const EVENT_CHANNEL = 'quire_events'

export interface HubEvent {
  key: string
  org: number
  type: string
  data: unknown
}
type Listener = (event: HubEvent) => void
type Queryable = Pick<pg.Pool, 'query'>

/** NOTIFY's payload limit is 8,000 bytes: a longer list of ids is sent as null ("reload all"). */
const MAX_PAYLOAD = 7_500

export interface EventHub {
  subscribe(key: string, listener: Listener): () => void
  /** Announces an event; inside a transaction it is delivered when the transaction commits. */
  publish(client: Queryable, event: HubEvent): Promise<void>
  /** Resolves once this node listens (at most a few seconds' wait when the database is away). */
  ready(): Promise<void>
  /** This node's id, so presence can tell its own viewers from other nodes'. */
  node: string
  /**
   * Called each time the listener is back after losing its connection: events announced
   * meanwhile were missed, so whoever shows live data must reload it (the streams send `resync`).
   */
  onReconnect(listener: () => void): () => void
  close(): Promise<void>
}

/** The longest wait between two attempts to listen again after the connection was lost. */
const MAX_BACKOFF_MS = 2_000

/** The statement and values that announce an event (for callers that batch their statements). */
export function notifyStatement(event: HubEvent): [string, unknown[]] {
  let payload = JSON.stringify(event)
  if (payload.length > MAX_PAYLOAD) {
    const data = { ...(event.data as Record<string, unknown>), question_ids: null }
    payload = JSON.stringify({ ...event, data })
  }
  return ['select pg_notify($1, $2)', [EVENT_CHANNEL, payload]]
}

export function createEventHub(options: { database: Database; logger: Logger }): EventHub {
  const { logger } = options
  const listeners = new Map<string, Set<Listener>>()
  let client: pg.Client | null = null
  let closed = false
  let retry: NodeJS.Timeout | null = null
  let backoff = 250
  /** Whether the listener has been connected before: a later connect is a reconnect. */
  let listened = false
  const reconnected = new Set<() => void>()

  const dispatch = (payload: string | undefined) => {
    if (!payload) return
    let event: HubEvent
    try {
      event = JSON.parse(payload) as HubEvent
    } catch {
      return
    }
    for (const listener of listeners.get(event.key) ?? []) {
      try {
        listener(event)
      } catch (error) {
        logger.warn({ err: error, key: event.key }, 'event listener failed')
      }
    }
  }

  let connecting: Promise<void> | null = null
  function connect() {
    connecting ??= open().finally(() => {
      connecting = null
    })
    return connecting
  }
  async function open() {
    if (closed || client) return
    const next = new pg.Client({
      ...(options.database.pool.options as pg.ClientConfig),
      application_name: `quire-events:${process.pid}`,
    })
    next.on('notification', (message) => dispatch(message.payload))
    next.on('error', (error) => {
      logger.warn({ err: error }, 'event listener connection lost; reconnecting')
      reconnect(next)
    })
    next.on('end', () => reconnect(next))
    try {
      await next.connect()
      await next.query(`listen ${EVENT_CHANNEL}`)
      client = next
      backoff = 250
      if (listened) {
        logger.info('event listener connected again: open streams resynchronise')
        for (const listener of reconnected) {
          try {
            listener()
          } catch (error) {
            logger.warn({ err: error }, 'reconnect listener failed')
          }
        }
      }
      listened = true
    } catch (error) {
      logger.warn({ err: error }, 'event listener could not connect; retrying')
      next.end().catch(() => {})
      schedule()
    }
  }
  function reconnect(from: pg.Client) {
    if (client !== from) return
    client = null
    from.end().catch(() => {})
    schedule()
  }
  function schedule() {
    if (closed || retry) return
    retry = setTimeout(() => {
      retry = null
      void connect()
    }, backoff)
    retry.unref()
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }

  return {
    node: randomUUID(),
    onReconnect(listener) {
      reconnected.add(listener)
      return () => reconnected.delete(listener)
    },
    async ready() {
      if (client || closed) return
      await Promise.race([connect(), new Promise((resolve) => setTimeout(resolve, 3_000).unref())])
    },
    subscribe(key, listener) {
      if (!client && !closed) void connect()
      const set = listeners.get(key) ?? new Set()
      set.add(listener)
      listeners.set(key, set)
      return () => {
        set.delete(listener)
        if (!set.size) listeners.delete(key)
      }
    },
    async publish(queryable, event) {
      const [text, values] = notifyStatement(event)
      await queryable.query(text, values)
    },
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const current = client
      client = null
      await current?.end().catch(() => {})
    },
  }
}

/** How often an open stream is told it is alive (proxies close silent connections). */
export const KEEP_ALIVE_MS = 20_000

export type SendEvent = (type: string, data: unknown) => Promise<void>

/** What a stream's owner (the stream registry) may do with it once open. */
export interface StreamControl {
  send: SendEvent
  /** Closes the stream now (an idle one too: it does not wait for its keep-alive). */
  stop: () => void
}

/**
 * A server-sent-events response that forwards the hub's events for `keys` of the caller's
 * organisation. `accept` filters events before anything else is done for them (presence
 * announcements between nodes, other people's notifications); `map` turns one into what is sent
 * (null: not sent). Whether the caller may still listen is the stream registry's job
 * (server/http/streams.ts): it checks sessions per node and closes a stream through `control`.
 */
export function streamEvents(
  c: Context,
  options: {
    hub: EventHub
    keys: string[]
    org: number
    accept?: (event: HubEvent) => boolean
    onOpen?: (send: SendEvent) => Promise<void> | void
    onClose?: () => Promise<void> | void
    keepAliveMs?: number
    /** What each event becomes before it is sent (null: not sent). */
    map?: (event: HubEvent) => Promise<unknown | null> | unknown | null
    /** Handed the stream's send and stop as soon as it opens. */
    control?: (control: StreamControl) => void
  },
): Response {
  c.header('Cache-Control', 'no-cache, no-transform')
  c.header('X-Accel-Buffering', 'no')
  return streamSSE(c, async (stream) => {
    let open = true
    let chain = Promise.resolve()
    const send: SendEvent = async (type, data) => {
      if (!open) return
      await stream.writeSSE({ event: type, data: JSON.stringify(data) })
    }
    let wake = () => {}
    const stop = () => {
      open = false
      wake()
    }
    const unsubscribe = options.keys.map((key) =>
      options.hub.subscribe(key, (event) => {
        if (!open || event.org !== options.org) return
        if (options.accept && !options.accept(event)) return
        // events are sent in the order they came
        chain = chain.then(async () => {
          if (!open) return
          const data = options.map ? await options.map(event) : event.data
          if (data !== null) await send(event.type, data)
        })
        chain = chain.catch(stop)
      }),
    )
    stream.onAbort(stop)
    try {
      options.control?.({ send, stop })
      // events after this point reach the stream: the client may act on the first one it gets
      await options.hub.ready()
      await options.onOpen?.(send)
      const every = options.keepAliveMs ?? KEEP_ALIVE_MS
      while (open && !stream.aborted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, every)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        if (!open || stream.aborted) break
        await stream.write(': keep-alive\n\n')
      }
    } catch {
      // the client went away mid-write
    } finally {
      open = false
      for (const off of unsubscribe) off()
      await options.onClose?.()
    }
  })
}
