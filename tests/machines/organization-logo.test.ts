import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/organization-logo/index.ts'
import {
  organizationLogoMachine,
  organizationLogoView,
} from '../../machines/organization-logo/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(organizationLogoMachine)
const file = new File([new Uint8Array([0x89, 0x50])], 'logo.png', { type: 'image/png' })
const events: AnyEventObject[] = [
  { type: 'upload', file },
  { type: 'remove' },
  { type: 'xstate.done.actor.loadLogo', output: 'blob:logo' },
  { type: 'xstate.error.actor.loadLogo', error: new Error('offline') },
  { type: 'xstate.done.actor.uploadLogo' },
  {
    type: 'xstate.error.actor.uploadLogo',
    error: new Error('The logo must be a PNG, JPEG or WebP image'),
  },
  { type: 'xstate.done.actor.removeLogo' },
  { type: 'xstate.error.actor.removeLogo', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('organizationLogoMachine', () => {
  testEveryPath(pending, events, { view })

  test('uploads the chosen image and reads the logo again; a refusal stays shown', async () => {
    const uploaded: File[] = []
    let stored: string | null = null
    let refuse = true
    const actor = createActor(
      organizationLogoMachine.provide({
        actors: {
          loadLogo: fromPromise<string | null, void>(async () => stored),
          uploadLogo: fromPromise<void, { file: File }>(async ({ input }) => {
            if (refuse) throw new Error('The logo must be a PNG, JPEG or WebP image')
            uploaded.push(input.file)
            stored = 'blob:new'
          }),
          removeLogo: fromPromise<void, void>(async () => {
            stored = null
          }),
        },
      }),
    )
    let changes = 0
    actor.on('changed', () => {
      changes += 1
    })
    actor.start()
    await settle()
    expect(organizationLogoView.url(actor.getSnapshot())).toBeNull()
    actor.send({ type: 'upload', file })
    await settle()
    expect(organizationLogoView.error(actor.getSnapshot())).toBe(
      'The logo must be a PNG, JPEG or WebP image',
    )
    refuse = false
    actor.send({ type: 'upload', file })
    await settle()
    await settle()
    expect(uploaded).toEqual([file])
    expect(organizationLogoView.url(actor.getSnapshot())).toBe('blob:new')
    expect(organizationLogoView.error(actor.getSnapshot())).toBeNull()
    actor.send({ type: 'remove' })
    await settle()
    await settle()
    expect(organizationLogoView.url(actor.getSnapshot())).toBeNull()
    expect(changes).toBe(2)
  })
})
