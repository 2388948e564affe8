import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, waitFor } from 'xstate'
import type { SectionPreview } from '../../contract/questionnaires.ts'
import * as view from '../../machines/section-preview/index.ts'
import {
  type PreviewSectionInput,
  type SectionPreviewEmitted,
  sectionPreviewMachine,
  sectionPreviewView,
} from '../../machines/section-preview/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const change = {
  question_id: 2,
  ref: 'SEC-02',
  question: 'Do you review access?',
  before: { text: 'Reviewed quarterly. By the officer.', choice: 'Yes' },
  after: { text: 'Reviewed quarterly.', choice: 'Yes' },
}
const some: SectionPreview = { changes: [change], contradictions: [] }
const none: SectionPreview = { changes: [], contradictions: [] }
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.sectionPreview.loading`
const events: AnyEventObject[] = [
  { type: 'preview', operation: 'shorten', tabId: 1 },
  { type: at('done'), output: some },
  { type: at('done'), output: none },
  { type: at('error'), error: new Error('offline') },
  { type: 'confirm' },
  { type: 'cancel' },
  { type: 'retry' },
]
const pending = pendingActors(sectionPreviewMachine)

function start(result: () => Promise<SectionPreview>) {
  const asked: PreviewSectionInput[] = []
  const confirmed: SectionPreviewEmitted[] = []
  const actor = createActor(
    sectionPreviewMachine.provide({
      actors: {
        previewSection: fromPromise<SectionPreview, PreviewSectionInput>(({ input }) => {
          asked.push(input)
          return result()
        }),
      },
    }),
    { input: { questionnaireId: 7 } },
  ).start()
  actor.on('confirmed', (event) => confirmed.push(event))
  return { actor, asked, confirmed }
}

describe('sectionPreviewMachine (issue 30)', () => {
  testEveryPath(pending, events, { view, input: { questionnaireId: 7 } })

  test('asks what the operation would change, and hands it on only when confirmed', async () => {
    const { actor, asked, confirmed } = start(async () => some)
    actor.send({ type: 'preview', operation: 'custom', tabId: 3, instruction: 'Be brief' })
    await waitFor(actor, (s) => s.matches('reviewing'))
    expect(asked).toEqual([
      { questionnaireId: 7, operation: 'custom', tabId: 3, instruction: 'Be brief' },
    ])
    expect(sectionPreviewView.preview(actor.getSnapshot())?.changes).toHaveLength(1)
    expect(confirmed).toEqual([])
    actor.send({ type: 'confirm' })
    expect(confirmed).toEqual([
      { type: 'confirmed', operation: 'custom', tabId: 3, instruction: 'Be brief' },
    ])
    expect(sectionPreviewView.open(actor.getSnapshot())).toBe(false)
  })

  test('a preview that changes nothing cannot be applied; cancelling changes nothing', async () => {
    const { actor, confirmed } = start(async () => none)
    actor.send({ type: 'preview', operation: 'shorten', tabId: 1 })
    await waitFor(actor, (s) => s.matches('reviewing'))
    actor.send({ type: 'confirm' })
    expect(actor.getSnapshot().value).toBe('reviewing')
    actor.send({ type: 'cancel' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(confirmed).toEqual([])
  })

  test('a failed preview says why and can be tried again', async () => {
    let fail = true
    const { actor } = start(async () => {
      if (fail) throw new Error('The server could not be reached.')
      return some
    })
    actor.send({ type: 'preview', operation: 'examples', tabId: 1 })
    await waitFor(actor, (s) => s.matches('failed'))
    expect(sectionPreviewView.error(actor.getSnapshot())).toBe('The server could not be reached.')
    fail = false
    actor.send({ type: 'retry' })
    await waitFor(actor, (s) => s.matches('reviewing'))
  })
})
