import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, SimulatedClock } from 'xstate'
import type { PortalAnswer, PortalField, PortalReadResponse } from '../../contract/portal.ts'
import { PORTAL_NOTICE_MS } from '../../machines/constants.ts'
import * as view from '../../machines/portal-panel/index.ts'
import {
  type DraftInput,
  type FillItem,
  type FillOutcome,
  type PageRead,
  portalPanelMachine,
  portalPanelView,
} from '../../machines/portal-panel/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const fields: PortalField[] = [
  {
    key: 'select:enc',
    question: 'Is data encrypted at rest?',
    kind: 'select',
    options: ['Implemented', 'Planned', 'Not applicable'],
    value: '',
  },
  { key: 'text:backup', question: 'Describe backups.', kind: 'text', options: [], value: 'Ours' },
  { key: 'text:dpo', question: 'Who is the DPO?', kind: 'text', options: [], value: '' },
  { key: 'text:mfa', question: 'Is MFA enforced?', kind: 'text', options: [], value: '' },
]
const page: PageRead = { url: 'https://portal.example/q', title: 'Vendor review', fields }

const answer = (key: string, over: Partial<PortalAnswer>): PortalAnswer => ({
  key,
  question_id: 1,
  answer_id: key.length,
  text: '',
  choice: null,
  confidence: null,
  band: null,
  citations: [],
  status: 'generated',
  note: null,
  version: 1,
  ...over,
})
const drafts = (versions: Record<string, number> = {}): PortalReadResponse => ({
  questionnaire_id: 7,
  name: 'Vendor review',
  url: page.url,
  added: 4,
  changed: 0,
  answers: [
    answer('select:enc', {
      text: 'Yes, AES-256.',
      choice: 'Yes',
      option: 'Implemented',
      confidence: 0.92,
      band: 'high',
      version: versions['select:enc'] ?? 1,
    }),
    answer('text:backup', { text: 'Nightly, encrypted.', confidence: 0.6, band: 'medium' }),
    answer('text:dpo', {
      text: 'Dana Doe',
      status: 'approved',
      version: versions['text:dpo'] ?? 1,
    }),
    answer('text:mfa', { text: 'Yes.', confidence: 0.3, band: 'low' }),
  ],
})

const pending = pendingActors(portalPanelMachine)
const ok = (key: string): FillOutcome => ({ key, answerId: 1, ok: true, overwrote: false })
const expired = Object.assign(new Error('ended'), { name: 'SessionExpired' })
const events: AnyEventObject[] = [
  { type: 'read' },
  { type: 'retry' },
  { type: 'fill', key: 'text:backup' },
  { type: 'fill', key: 'missing' },
  { type: 'fill.high' },
  { type: 'overwrite.confirm' },
  { type: 'overwrite.cancel' },
  { type: 'connect' },
  { type: 'session.changed' },
  { type: 'page.changed' },
  { type: 'xstate.done.actor.checkSession', output: 'http://quire.test' },
  { type: 'xstate.done.actor.checkSession', output: null },
  { type: 'xstate.error.actor.checkSession', error: new Error('offline') },
  { type: 'xstate.done.actor.connect' },
  { type: 'xstate.error.actor.connect', error: new Error('no tab') },
  { type: 'xstate.done.actor.readPage', output: page },
  { type: 'xstate.error.actor.readPage', error: new Error('Not a web page') },
  { type: 'xstate.done.actor.draft', output: drafts() },
  { type: 'xstate.error.actor.draft', error: new Error('Quire answered 500') },
  { type: 'xstate.error.actor.draft', error: expired },
  {
    type: 'xstate.done.actor.fill',
    output: [{ ...ok('text:backup'), ok: false, occupied: true, current: 'Ours' }],
  },
  { type: 'xstate.done.actor.fill', output: [ok('select:enc')] },
  {
    type: 'xstate.done.actor.fill',
    output: [{ ...ok('select:enc'), ok: false, reason: 'No option matches the answer.' }],
  },
  { type: 'xstate.error.actor.fill', error: new Error('The tab was closed') },
  { type: 'xstate.done.actor.record' },
  { type: 'xstate.error.actor.record', error: new Error('Quire answered 500') },
  { type: 'xstate.error.actor.record', error: expired },
]

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function start(overrides: { fill?: (items: FillItem[]) => FillOutcome[] } = {}) {
  const clock = new SimulatedClock()
  const drafted: DraftInput[] = []
  const filled: FillItem[][] = []
  const recorded: FillOutcome[][] = []
  let versions: Record<string, number> = {}
  const actor = createActor(
    portalPanelMachine.provide({
      actors: {
        checkSession: fromPromise<string | null, void>(async () => 'http://quire.test'),
        connect: fromPromise<void, void>(async () => {}),
        readPage: fromPromise<PageRead, void>(async () => page),
        draft: fromPromise<PortalReadResponse, DraftInput>(async ({ input }) => {
          drafted.push(input)
          return drafts(versions)
        }),
        fill: fromPromise<FillOutcome[], { items: FillItem[] }>(async ({ input }) => {
          filled.push(input.items)
          return overrides.fill
            ? overrides.fill(input.items)
            : input.items.map((item) => ({
                key: item.key,
                answerId: item.answerId,
                ok: true,
                overwrote: item.overwrite,
              }))
        }),
        record: fromPromise<void, { questionnaireId: number; outcomes: FillOutcome[] }>(
          async ({ input }) => {
            recorded.push(input.outcomes)
          },
        ),
      },
    }),
    { clock },
  )
  actor.start()
  return {
    actor,
    clock,
    drafted,
    filled,
    recorded,
    setVersions: (next: Record<string, number>) => {
      versions = next
    },
  }
}

describe('portalPanelMachine', () => {
  testEveryPath(pending, events, {
    view,
    assertState: (s, { event }) => {
      if (event.type.startsWith('xstate.error.') && s.context.error !== null) {
        expect(['signedOut', 'failed', 'review']).toContain(view.portalPanelView.screen(s))
      }
    },
    identity: (s) => [
      Boolean(s.context.questionnaire),
      Object.keys(s.context.outcomes).length > 0,
      Boolean(s.context.overwrite),
      s.context.queue.length,
      Boolean(s.context.notice),
    ],
  })

  test('reads, drafts, and fills all High and approved answers, never Medium or Low', async () => {
    const { actor, filled, recorded, drafted } = start()
    await settle()
    actor.send({ type: 'read' })
    await settle()
    await settle()
    expect(portalPanelView.screen(actor.getSnapshot())).toBe('review')
    expect(drafted[0]).toMatchObject({
      url: page.url,
      title: 'Vendor review',
      questionnaireId: null,
    })
    expect(portalPanelView.highCount(actor.getSnapshot())).toBe(2)
    actor.send({ type: 'fill.high' })
    await settle()
    await settle()
    expect(filled[0]).toEqual([
      { key: 'select:enc', answerId: 10, value: 'Implemented', overwrite: false },
      { key: 'text:dpo', answerId: 8, value: 'Dana Doe', overwrite: false },
    ])
    expect(recorded[0]?.map((outcome) => outcome.key)).toEqual(['select:enc', 'text:dpo'])
    expect(actor.getSnapshot().context.notice).toBe('Filled 2 answers.')
    // nothing High is left to fill
    expect(portalPanelView.highCount(actor.getSnapshot())).toBe(0)
    actor.send({ type: 'fill.high' })
    expect(filled).toHaveLength(1)
  })

  test('asks before replacing what a field holds, showing both; the notice goes after its time', async () => {
    const { actor, filled, clock } = start({
      fill: (items) =>
        items.map((item) =>
          item.overwrite
            ? { key: item.key, answerId: item.answerId, ok: true, overwrote: true }
            : {
                key: item.key,
                answerId: item.answerId,
                ok: false,
                occupied: true,
                current: 'Ours',
                overwrote: false,
              },
        ),
    })
    await settle()
    actor.send({ type: 'read' })
    await settle()
    await settle()
    actor.send({ type: 'fill', key: 'text:backup' })
    await settle()
    expect(portalPanelView.confirming(actor.getSnapshot())).toBe(true)
    expect(actor.getSnapshot().context.overwrite).toEqual({
      key: 'text:backup',
      question: 'Describe backups.',
      current: 'Ours',
      next: 'Nightly, encrypted.',
    })
    actor.send({ type: 'overwrite.confirm' })
    await settle()
    await settle()
    expect(filled[1]).toEqual([
      { key: 'text:backup', answerId: 11, value: 'Nightly, encrypted.', overwrite: true },
    ])
    expect(actor.getSnapshot().matches({ review: 'notice' })).toBe(true)
    clock.increment(PORTAL_NOTICE_MS - 1)
    expect(actor.getSnapshot().context.notice).toBe('Filled 1 answer.')
    clock.increment(1)
    expect(actor.getSnapshot().context.notice).toBeNull()
  })

  test('reading again goes to the same questionnaire and shows what changed in Quire', async () => {
    const { actor, drafted, setVersions } = start()
    await settle()
    actor.send({ type: 'read' })
    await settle()
    await settle()
    setVersions({ 'text:dpo': 3 })
    actor.send({ type: 'read' })
    await settle()
    await settle()
    expect(drafted[1]?.questionnaireId).toBe(7)
    expect(actor.getSnapshot().context.updated).toEqual(['text:dpo'])
  })

  test('an ended session is said so, and connecting again is offered', async () => {
    const actor = createActor(
      pending.provide({
        actors: {
          checkSession: fromPromise<string | null, void>(async () => 'http://quire.test'),
          readPage: fromPromise<PageRead, void>(async () => page),
          draft: fromPromise<PortalReadResponse, DraftInput>(async () => {
            throw expired
          }),
        },
      }),
    ).start()
    await settle()
    actor.send({ type: 'read' })
    await settle()
    await settle()
    expect(portalPanelView.screen(actor.getSnapshot())).toBe('expired')
  })
})
