import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import * as view from '../../machines/add-by-url/index.ts'
import { type AddUrlInput, addByUrlMachine } from '../../machines/add-by-url/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(addByUrlMachine)
const events: AnyEventObject[] = [
  { type: 'open' },
  { type: 'close' },
  { type: 'url.change', value: 'https://example.com/trust' },
  { type: 'url.change', value: 'example' },
  { type: 'tags.change', value: 'web, policies' },
  { type: 'submit' },
  { type: 'xstate.done.actor.0.addByUrl.submitting', output: { id: 1 } },
  {
    type: 'xstate.error.actor.0.addByUrl.submitting',
    error: new Error('This address cannot be fetched'),
  },
]

describe('addByUrlMachine', () => {
  testEveryPath(pending, events, { view })

  test('checks the address before sending and keeps the input on a refusal', async () => {
    const sent: AddUrlInput[] = []
    const actor = createActor(
      addByUrlMachine.provide({
        actors: {
          addUrl: fromPromise<RepositoryFile, AddUrlInput>(async ({ input }) => {
            sent.push(input)
            throw new Error(
              'This address cannot be fetched: only public http and https sites are allowed',
            )
          }),
        },
      }),
    ).start()
    actor.send({ type: 'open' })
    actor.send({ type: 'url.change', value: 'intranet' })
    actor.send({ type: 'submit' })
    expect(actor.getSnapshot().context.error).toBe(
      'Enter a URL that starts with http:// or https://',
    )
    actor.send({ type: 'url.change', value: 'http://10.0.0.1/' })
    actor.send({ type: 'tags.change', value: 'a, b' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual([{ url: 'http://10.0.0.1/', tags: ['a', 'b'] }])
    expect(actor.getSnapshot().value).toBe('editing')
    expect(actor.getSnapshot().context).toMatchObject({
      url: 'http://10.0.0.1/',
      error: 'This address cannot be fetched: only public http and https sites are allowed',
    })
  })
})
