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
  close(): Promise<void>
}

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
  let backoff = 500

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
      backoff = 500
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
    backoff = Math.min(backoff * 2, 15_000)
  }

  return {
    node: randomUUID(),
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

/**
 * A server-sent-events response that forwards the hub's events for `keys` of the caller's
 * organisation. `check` runs before each event and on every keep-alive: when it answers false
 * (the person was removed, the session ended) the stream closes.
 */
export function streamEvents(
  c: Context,
  options: {
    hub: EventHub
    keys: string[]
    org: number
    check?: () => Promise<boolean>
    onOpen?: (send: SendEvent) => Promise<void> | void
    onClose?: () => Promise<void> | void
    keepAliveMs?: number
    /** What each event becomes before it is sent (null: not sent). */
    map?: (event: HubEvent) => Promise<unknown | null> | unknown | null
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
        if (event.org !== options.org) return
        // events are sent in the order they came, each after the caller is checked again
        chain = chain.then(async () => {
          if (!open) return
          if (options.check && !(await options.check())) return stop()
          const data = options.map ? await options.map(event) : event.data
          if (data !== null) await send(event.type, data)
        })
        chain = chain.catch(stop)
      }),
    )
    stream.onAbort(stop)
    try {
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
        if (options.check && !(await options.check())) break
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
