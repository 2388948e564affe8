import { describe, expect, test } from 'vitest'
import { createActor, type EventFromLogic } from 'xstate'
import {
  type SidebarInput,
  selectExpanded,
  selectIsMobile,
  selectMobileOpen,
  sidebarMachine,
} from '../../machines/sidebar/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

type SidebarEvent = EventFromLogic<typeof sidebarMachine>

const allEvents: SidebarEvent[] = [
  { type: 'toggle' },
  { type: 'expand' },
  { type: 'collapse' },
  { type: 'mobile.open' },
  { type: 'mobile.close' },
  { type: 'navigate' },
  { type: 'viewport.change', isMobile: true },
  { type: 'viewport.change', isMobile: false },
]

/** Starts the sidebar and records what it emits for the cookie. */
function start(input: SidebarInput) {
  const actor = createActor(sidebarMachine, { input })
  const persisted: boolean[] = []
  actor.on('persist', (event) => persisted.push(event.expanded))
  actor.start()
  return { actor, persisted }
}

describe('sidebarMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(sidebarMachine, {
      inputs: [
        { expanded: true, isMobile: false },
        { expanded: false, isMobile: false },
        { expanded: true, isMobile: true },
        { expanded: false, isMobile: true },
      ],
      events: allEvents,
      assertState: (snapshot) => {
        // the slide-over only exists on mobile
        if (selectMobileOpen(snapshot)) expect(selectIsMobile(snapshot)).toBe(true)
        // exactly one of expanded and collapsed once restored
        expect(snapshot.matches({ desktop: 'restoring' })).toBe(false)
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('starts as the cookie says: expanded or collapsed, without writing the cookie', () => {
    const expanded = start({ expanded: true, isMobile: false })
    const collapsed = start({ expanded: false, isMobile: false })
    expect(selectExpanded(expanded.actor.getSnapshot())).toBe(true)
    expect(selectExpanded(collapsed.actor.getSnapshot())).toBe(false)
    expect(collapsed.actor.getSnapshot().matches({ desktop: 'collapsed', mobile: 'closed' })).toBe(
      true,
    )
    expect([...expanded.persisted, ...collapsed.persisted]).toEqual([])
  })

  test('Ctrl+B toggle on desktop collapses, then expands, emitting persist each time', () => {
    const { actor, persisted } = start({ expanded: true, isMobile: false })
    actor.send({ type: 'toggle' })
    expect(selectExpanded(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'toggle' })
    expect(selectExpanded(actor.getSnapshot())).toBe(true)
    expect(persisted).toEqual([false, true])
    expect(selectMobileOpen(actor.getSnapshot())).toBe(false)
  })

  test('Ctrl+B toggle on mobile opens the slide-over, not the collapse', () => {
    const { actor, persisted } = start({ expanded: true, isMobile: true })
    actor.send({ type: 'toggle' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(true)
    expect(selectExpanded(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'toggle' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(false)
    expect(persisted).toEqual([])
  })

  test('collapsing emits persist with expanded false', () => {
    const { actor, persisted } = start({ expanded: true, isMobile: false })
    actor.send({ type: 'collapse' })
    expect(persisted).toEqual([false])
  })

  test('expanding emits persist with expanded true', () => {
    const { actor, persisted } = start({ expanded: false, isMobile: false })
    actor.send({ type: 'expand' })
    expect(persisted).toEqual([true])
  })

  test('expand or collapse that changes nothing emits nothing', () => {
    const { actor, persisted } = start({ expanded: true, isMobile: false })
    actor.send({ type: 'expand' })
    actor.send({ type: 'collapse' })
    actor.send({ type: 'collapse' })
    expect(persisted).toEqual([false])
  })

  test('navigating closes the slide-over', () => {
    const { actor } = start({ expanded: true, isMobile: true })
    actor.send({ type: 'mobile.open' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'navigate' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(false)
  })

  test('mobile.close closes the slide-over', () => {
    const { actor } = start({ expanded: true, isMobile: true })
    actor.send({ type: 'mobile.open' })
    actor.send({ type: 'mobile.close' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(false)
  })

  test('switching to desktop closes the slide-over and keeps the desktop preference', () => {
    const { actor, persisted } = start({ expanded: false, isMobile: true })
    actor.send({ type: 'mobile.open' })
    actor.send({ type: 'viewport.change', isMobile: false })
    const snapshot = actor.getSnapshot()
    expect(selectMobileOpen(snapshot)).toBe(false)
    expect(selectIsMobile(snapshot)).toBe(false)
    expect(selectExpanded(snapshot)).toBe(false)
    expect(persisted).toEqual([])
  })

  test('the slide-over cannot open on desktop', () => {
    const { actor } = start({ expanded: true, isMobile: false })
    actor.send({ type: 'mobile.open' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(false)
  })

  test('switching to mobile makes toggle open the slide-over', () => {
    const { actor, persisted } = start({ expanded: true, isMobile: false })
    actor.send({ type: 'viewport.change', isMobile: true })
    actor.send({ type: 'toggle' })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(true)
    expect(selectExpanded(actor.getSnapshot())).toBe(true)
    expect(persisted).toEqual([])
  })

  test('a viewport change that stays mobile leaves the slide-over open', () => {
    const { actor } = start({ expanded: true, isMobile: true })
    actor.send({ type: 'mobile.open' })
    actor.send({ type: 'viewport.change', isMobile: true })
    expect(selectMobileOpen(actor.getSnapshot())).toBe(true)
  })
})
