import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, waitFor } from 'xstate'
import type { LegalDocument, LegalKind } from '../../contract/legal.ts'
import * as view from '../../machines/legal-page/index.ts'
import { legalPageMachine, legalPageView } from '../../machines/legal-page/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const document: LegalDocument = {
  kind: 'terms',
  title: 'Terms of Service',
  url: null,
  markdown: 'This instance of Quire is run by **Acme**.',
  operator: 'Acme',
  custom: false,
}
const pending = pendingActors(legalPageMachine)
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'xstate.done.actor.0.legalPage.loading', output: document },
  { type: 'xstate.error.actor.0.legalPage.loading', error: new Error('Network error') },
]

describe('legalPageMachine', () => {
  testEveryPath(pending, events, { view, input: { kind: 'terms' } })

  test('reads the page asked for, says why a read failed, and reads again on retry', async () => {
    const asked: LegalKind[] = []
    let fail = true
    const actor = createActor(
      legalPageMachine.provide({
        actors: {
          loadDocument: fromPromise<LegalDocument, { kind: LegalKind }>(async ({ input }) => {
            asked.push(input.kind)
            if (fail) throw new Error('The server could not be reached.')
            return { ...document, kind: input.kind }
          }),
        },
      }),
      { input: { kind: 'privacy' } },
    ).start()
    await waitFor(actor, (s) => s.matches('failed'))
    expect(legalPageView.error(actor.getSnapshot())).toBe('The server could not be reached.')
    fail = false
    actor.send({ type: 'retry' })
    expect(legalPageView.loading(actor.getSnapshot())).toBe(true)
    await waitFor(actor, (s) => s.matches('shown'))
    expect(legalPageView.document(actor.getSnapshot())?.kind).toBe('privacy')
    expect(legalPageView.error(actor.getSnapshot())).toBeNull()
    expect(asked).toEqual(['privacy', 'privacy'])
  })
})
