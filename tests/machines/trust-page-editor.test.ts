import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustSettings, TrustSettingsUpdate } from '../../contract/trust.ts'
import * as view from '../../machines/trust-page-editor/index.ts'
import {
  EMPTY_TRUST_SETTINGS,
  trustPageEditorMachine,
  trustPageEditorView,
  trustUpdateOf,
} from '../../machines/trust-page-editor/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const saved: TrustSettings = {
  ...EMPTY_TRUST_SETTINGS,
  slug: 'acme',
  sections: ['overview', 'documents'],
  overview: 'We keep your data safe.',
  nda_text: 'Keep it secret.',
  nda_version: 1,
}
const pending = pendingActors(trustPageEditorMachine)
const events: AnyEventObject[] = [
  { type: 'edit', change: { overview: 'Changed' } },
  { type: 'reset' },
  { type: 'preview' },
  { type: 'back' },
  { type: 'save' },
  { type: 'publish', published: true },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadTrust', output: saved },
  { type: 'xstate.error.actor.loadTrust', error: new Error('offline') },
  { type: 'xstate.done.actor.saveTrust', output: { ...saved, published: true } },
  { type: 'xstate.error.actor.saveTrust', error: new Error('That page address is taken') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustPageEditorMachine', () => {
  testEveryPath(pending, events, { view })

  test('edits, previews, publishes; a refused publication leaves the page unpublished', async () => {
    const sent: TrustSettingsUpdate[] = []
    let refuse = true
    const actor = createActor(
      trustPageEditorMachine.provide({
        actors: {
          loadTrust: fromPromise<TrustSettings, void>(async () => saved),
          saveTrust: fromPromise<TrustSettings, TrustSettingsUpdate>(async ({ input }) => {
            sent.push(input)
            if (refuse) throw new Error('That page address is taken: choose another.')
            return { ...saved, ...input, nda_version: 1, updated_at: null } as TrustSettings
          }),
        },
      }),
    ).start()
    const saves: TrustSettings[] = []
    actor.on('saved', (event) => saves.push(event.settings))
    await settle()
    actor.send({ type: 'edit', change: { overview: 'New words', contact_email: ' ' } })
    expect(trustPageEditorView.changed(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'preview' })
    expect(trustPageEditorView.preview(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'publish', published: true })
    await settle()
    expect(sent[0]).toMatchObject({ published: true, overview: 'New words', contact_email: null })
    expect(trustPageEditorView.error(actor.getSnapshot())).toMatch(/taken/)
    expect(trustPageEditorView.form(actor.getSnapshot()).published).toBe(false)
    expect(trustPageEditorView.form(actor.getSnapshot()).overview).toBe('New words')
    refuse = false
    actor.send({ type: 'publish', published: true })
    await settle()
    expect(saves).toHaveLength(1)
    expect(trustPageEditorView.justSaved(actor.getSnapshot())).toBe(true)
    expect(trustPageEditorView.changed(actor.getSnapshot())).toBe(false)
    expect(trustPageEditorView.form(actor.getSnapshot()).published).toBe(true)
  })

  test('an unnamed page sends no address', () => {
    expect(trustUpdateOf({ ...saved, slug: '  ' })).not.toHaveProperty('slug')
  })
})
