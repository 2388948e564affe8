import { describe, expect, test, vi } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustReader } from '../../contract/trust.ts'
import * as view from '../../machines/trust-reader/index.ts'
import {
  readerCheckDelay,
  TRUST_READER_CHECK_MS,
  trustReaderMachine,
  trustReaderView,
} from '../../machines/trust-reader/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

type Reader = NonNullable<TrustReader['reader']>
const reader: Reader = { email: 'priya@acme.test', expires_at: '2099-01-01T00:00:00Z' }
const pending = pendingActors(trustReaderMachine)
const events: AnyEventObject[] = [
  { type: 'open' },
  { type: 'dismiss' },
  { type: 'xstate.done.actor.loadReader', output: { reader } },
  { type: 'xstate.done.actor.loadReader', output: { reader: null } },
  { type: 'xstate.error.actor.loadReader', error: new Error('offline') },
  { type: 'xstate.done.actor.recheckReader', output: { reader } },
  { type: 'xstate.done.actor.recheckReader', output: { reader: null } },
  { type: 'xstate.error.actor.recheckReader', error: new Error('offline') },
  { type: 'xstate.done.actor.openSession', output: reader },
  { type: 'xstate.error.actor.openSession', error: new Error('This access link is invalid') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustReaderMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [
      { slug: 'acme', access: null },
      { slug: 'acme', access: 'one-time-token-123' },
    ],
  })

  test('checks every 5 minutes, or when the session is due to end if sooner', () => {
    const now = Date.parse('2026-11-28T10:00:00Z')
    expect(readerCheckDelay({ ...reader, expires_at: '2026-12-28T10:00:00Z' }, now)).toBe(
      TRUST_READER_CHECK_MS,
    )
    expect(readerCheckDelay({ ...reader, expires_at: '2026-11-28T10:01:00Z' }, now)).toBe(61_000)
  })

  test('the link opens a session on the visitor’s click; a revoked session ends at the next check', async () => {
    vi.useFakeTimers()
    try {
      const opened: string[] = []
      let current: Reader | null = reader
      const actor = createActor(
        trustReaderMachine.provide({
          actors: {
            loadReader: fromPromise<TrustReader, { slug: string }>(async () => ({
              reader: current,
            })),
            openSession: fromPromise<Reader, { slug: string; token: string }>(async ({ input }) => {
              opened.push(input.token)
              return reader
            }),
          },
        }),
        { input: { slug: 'acme', access: 'one-time-token-123' } },
      ).start()
      expect(trustReaderView.linkToOpen(actor.getSnapshot())).toBe(true)
      expect(opened).toEqual([])
      actor.send({ type: 'open' })
      await vi.advanceTimersByTimeAsync(0)
      expect(opened).toEqual(['one-time-token-123'])
      expect(trustReaderView.reader(actor.getSnapshot())).toEqual(reader)
      current = null
      await vi.advanceTimersByTimeAsync(TRUST_READER_CHECK_MS)
      expect(trustReaderView.ended(actor.getSnapshot())).toBe(true)
      expect(trustReaderView.error(actor.getSnapshot())).toBe(
        'Your access has ended. Ask for access again.',
      )
    } finally {
      vi.useRealTimers()
    }
  })

  test('a used link says so', async () => {
    const actor = createActor(
      trustReaderMachine.provide({
        actors: {
          loadReader: fromPromise<TrustReader, { slug: string }>(async () => ({ reader: null })),
          openSession: fromPromise<Reader, { slug: string; token: string }>(async () => {
            throw new Error(
              'This access link is invalid or was already used. Ask for access again.',
            )
          }),
        },
      }),
      { input: { slug: 'acme', access: 'used-token-1234' } },
    ).start()
    actor.send({ type: 'open' })
    await settle()
    expect(trustReaderView.linkFailed(actor.getSnapshot())).toBe(true)
    expect(trustReaderView.error(actor.getSnapshot())).toMatch(/already used/)
  })
})
