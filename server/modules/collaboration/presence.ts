import type { Pool } from 'pg'
import type { UserRef } from '../../../contract/knowledge.ts'
import type { EventHub, HubEvent } from '../../http/event-hub.ts'

/**
 * Who is looking at a questionnaire (issue 29), across every node: each node tells the others
 * who watches on it (when someone comes or goes, and every HEARTBEAT_MS), through the event hub;
 * a node not heard of for EXPIRE_MS is forgotten (it stopped). A person with two tabs open counts
 * once.
 *
 * Its cost does not grow with the square of the viewers (issue 37): comings and goings within
 * SETTLE_MS are gathered into one announcement per questionnaire (one NOTIFY, not one per tab),
 * viewers are told only when the set of people changes, and a newcomer is told who is here
 * directly, without telling everyone else again.
 */
export const HEARTBEAT_MS = 10_000
export const EXPIRE_MS = 35_000
export const SETTLE_MS = 150

interface Watch {
  orgId: number
  viewers: Map<string, UserRef>
  /** What each node last said: its viewers, and when. */
  nodes: Map<string, { viewers: UserRef[]; at: number }>
  push: Set<(viewers: UserRef[]) => void>
  off: () => void
  last: string
  /** The gathered announcement waiting to go, if any. */
  pending: NodeJS.Timeout | null
  /** Who this node last announced, so an unchanged set is not announced again. */
  said: string
}

export function createPresence(
  hub: EventHub,
  pool: Pick<Pool, 'query'>,
  now: () => number = Date.now,
) {
  const watched = new Map<number, Watch>()
  let slots = 0

  const union = (watch: Watch) => {
    const at = now()
    const people = new Map<string, UserRef>()
    for (const [node, said] of watch.nodes) {
      if (node !== hub.node && at - said.at > EXPIRE_MS) {
        watch.nodes.delete(node)
        continue
      }
      for (const viewer of said.viewers) people.set(viewer.id, viewer)
    }
    return [...people.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  const tell = (watch: Watch) => {
    const viewers = union(watch)
    const key = viewers.map((v) => v.id).join(',')
    if (key === watch.last) return
    watch.last = key
    for (const push of watch.push) push(viewers)
  }

  const localViewers = (watch: Watch) => [
    ...new Map([...watch.viewers.values()].map((v) => [v.id, v])).values(),
  ]

  async function announce(questionnaireId: number, watch: Watch) {
    const viewers = localViewers(watch)
    watch.nodes.set(hub.node, { viewers, at: now() })
    watch.said = viewers.map((v) => v.id).join(',')
    tell(watch)
    await hub
      .publish(pool, {
        key: `questionnaire:${questionnaireId}`,
        org: watch.orgId,
        type: 'presence-node',
        data: { node: hub.node, viewers },
      })
      .catch(() => {})
  }

  /** Comings and goings are announced together, SETTLE_MS after the first of them. */
  function settle(questionnaireId: number, watch: Watch) {
    if (watch.pending) return
    watch.pending = setTimeout(() => {
      watch.pending = null
      const viewers = localViewers(watch)
      if (viewers.map((v) => v.id).join(',') === watch.said) return
      void announce(questionnaireId, watch)
    }, SETTLE_MS)
    watch.pending.unref()
  }

  const heartbeat = setInterval(() => {
    for (const [id, watch] of watched) {
      void announce(id, watch)
      tell(watch)
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()

  /** A viewer opens the questionnaire; `push` is told the viewers whenever they change. */
  function join(
    orgId: number,
    questionnaireId: number,
    viewer: UserRef,
    push: (viewers: UserRef[]) => void,
  ) {
    let watch = watched.get(questionnaireId)
    if (!watch) {
      const created: Watch = {
        orgId,
        viewers: new Map(),
        nodes: new Map(),
        push: new Set(),
        last: '',
        off: () => {},
        pending: null,
        said: '',
      }
      created.off = hub.subscribe(`questionnaire:${questionnaireId}`, (event: HubEvent) => {
        if (event.type !== 'presence-node' || event.org !== orgId) return
        const data = event.data as { node: string; viewers: UserRef[] }
        if (data.node === hub.node) return
        const known = created.nodes.has(data.node)
        created.nodes.set(data.node, { viewers: data.viewers, at: now() })
        tell(created)
        // a node heard of for the first time hears from this one at once, not at the heartbeat
        if (!known) void announce(questionnaireId, created)
      })
      watched.set(questionnaireId, created)
      watch = created
    }
    const entry = watch
    slots += 1
    const slot = `${slots}`
    entry.viewers.set(slot, viewer)
    entry.push.add(push)
    // the newcomer counts here at once; the others hear of a new person once, when it settles
    entry.nodes.set(hub.node, { viewers: localViewers(entry), at: now() })
    push(union(entry))
    settle(questionnaireId, entry)
    return () => {
      entry.viewers.delete(slot)
      entry.push.delete(push)
      if (!entry.viewers.size) {
        if (entry.pending) clearTimeout(entry.pending)
        entry.off()
        watched.delete(questionnaireId)
        // the other nodes hear that nobody here watches any more
        entry.viewers.clear()
        void announce(questionnaireId, entry)
        return
      }
      settle(questionnaireId, entry)
    }
  }

  return {
    join,
    close: () => clearInterval(heartbeat),
  }
}

export type Presence = ReturnType<typeof createPresence>
