import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_COUNT,
  SUPPORT_TEXTS,
  type TicketType,
} from '../../contract/support.ts'
import * as view from '../../machines/support-ticket/index.ts'
import {
  ATTACHMENT_COUNT_TEXT,
  EMPTY_DRAFT,
  type LoadDraftOutput,
  type SubmitTicketInput,
  type SupportTicketEmitted,
  selectAttachmentError,
  selectAttachments,
  selectErrors,
  selectFailure,
  selectIsOpen,
  selectIsSubmitting,
  selectValues,
  supportTicketMachine,
  type TicketAttachment,
  type TicketDraft,
  type TicketTextField,
} from '../../machines/support-ticket/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

/** Actors that never settle: the graph paths deliver their done and error events. */
const pending = pendingActors(supportTicketMachine)

const change = (field: TicketTextField, value: string) =>
  ({ type: 'field.change', field, value }) as const
const file = (filename: string, size = 1_024): TicketAttachment => ({
  filename,
  data: 'aGVsbG8=',
  size,
})
const add = (attachment: TicketAttachment) => ({ type: 'attachment.add', attachment }) as const

const savedDraft: TicketDraft = {
  type: 'Question',
  summary: 'Saved summary',
  description: 'Saved description',
  steps: '',
  priority: 'High',
}

const events: AnyEventObject[] = [
  { type: 'open' },
  { type: 'open', ticketType: 'Feature Request' },
  { type: 'close' },
  change('summary', 'Export drops cells'),
  change('description', 'Merged cells are lost'),
  change('steps', '1. Export'),
  { type: 'type.change', value: 'Bug' },
  { type: 'priority.change', value: 'High' },
  add(file('screen.png')),
  add(file('virus.exe')),
  { type: 'attachment.remove', index: 0 },
  { type: 'clear' },
  { type: 'submit' },
  { type: 'xstate.done.actor.loadDraft', output: null },
  { type: 'xstate.done.actor.loadDraft', output: savedDraft },
  { type: 'xstate.error.actor.loadDraft', error: new Error('unreadable') },
  { type: 'xstate.done.actor.submitTicket', output: undefined },
  { type: 'xstate.error.actor.submitTicket', error: new Error('502') },
]

function start(
  options: { draft?: LoadDraftOutput; submit?: (input: SubmitTicketInput) => Promise<void> } = {},
) {
  const calls: SubmitTicketInput[] = []
  const emitted: SupportTicketEmitted[] = []
  // the app's side of the draft: what the emitted events leave in storage
  let stored: TicketDraft | null = options.draft ?? null
  const actor = createActor(
    supportTicketMachine.provide({
      actors: {
        loadDraft: fromPromise<LoadDraftOutput>(async () => stored),
        submitTicket: fromPromise<void, SubmitTicketInput>(({ input }) => {
          calls.push(input)
          return (options.submit ?? (async () => {}))(input)
        }),
      },
    }),
  )
  actor.on('*', (event) => {
    emitted.push(event)
    if (event.type === 'draft.save') stored = event.draft
    if (event.type === 'draft.clear') stored = null
  })
  actor.start()
  return {
    actor,
    calls,
    emitted,
    stored: () => stored,
    snapshot: () => actor.getSnapshot(),
    open: async (ticketType?: TicketType) => {
      actor.send(ticketType ? { type: 'open', ticketType } : { type: 'open' })
      await settle()
    },
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('supportTicketMachine', () => {
  testEveryPath(pending, events, {
    view,
    // what decides the flow: which fields are filled, how many files, which messages show
    serializeState: (snapshot) => {
      const { values, attachments, ...rest } = snapshot.context
      return JSON.stringify([
        snapshot.value,
        Boolean(values.summary.trim()),
        Boolean(values.description.trim()),
        // one file stands for any number below the limit
        Math.min(attachments.length, 1),
        rest,
      ])
    },
    assertState: (snapshot) => {
      expect(selectIsSubmitting(snapshot)).toBe(snapshot.matches({ open: 'submitting' }))
      // only a complete form is sent
      if (selectIsSubmitting(snapshot)) {
        expect(selectErrors(snapshot)).toEqual(EMPTY_ERRORS)
        expect(selectFailure(snapshot)).toBeNull()
      }
    },
  })

  test('opens with Medium priority and the first type when there is no draft', async () => {
    const { open, snapshot } = start()
    expect(selectIsOpen(snapshot())).toBe(false)
    await open()
    expect(snapshot().matches({ open: 'editing' })).toBe(true)
    expect(selectValues(snapshot())).toEqual({ ...EMPTY_DRAFT, priority: 'Medium', type: 'Bug' })
  })

  test("'Ask for a Feature' opens it as a Feature Request, over the draft's type", async () => {
    const { open, snapshot } = start({ draft: savedDraft })
    await open('Feature Request')
    expect(selectValues(snapshot())).toEqual({ ...savedDraft, type: 'Feature Request' })
  })

  test('saves the draft as the user types and restores it on reopening', async () => {
    const { actor, open, snapshot, stored } = start()
    await open()
    actor.send(change('summary', 'Export drops cells'))
    actor.send({ type: 'priority.change', value: 'Low' })
    actor.send({ type: 'type.change', value: 'Feedback' })
    expect(stored()).toEqual({
      ...EMPTY_DRAFT,
      summary: 'Export drops cells',
      priority: 'Low',
      type: 'Feedback',
    })
    actor.send({ type: 'close' })
    expect(selectIsOpen(snapshot())).toBe(false)
    await open()
    expect(selectValues(snapshot())).toEqual(stored())
  })

  test('restores a stored draft on opening', async () => {
    const { open, snapshot } = start({ draft: savedDraft })
    await open()
    expect(selectValues(snapshot())).toEqual(savedDraft)
  })

  test('an unreadable draft leaves the form as it is', async () => {
    const actor = createActor(
      supportTicketMachine.provide({
        actors: {
          loadDraft: fromPromise<LoadDraftOutput>(async () => {
            throw new Error('bad JSON')
          }),
        },
      }),
    ).start()
    actor.send({ type: 'open', ticketType: 'Idea / Random' })
    await settle()
    expect(selectValues(actor.getSnapshot())).toEqual({ ...EMPTY_DRAFT, type: 'Idea / Random' })
  })

  test('a blank summary and description send nothing and say what is required', async () => {
    const { actor, calls, open, snapshot } = start()
    await open()
    actor.send(change('summary', '   '))
    actor.send({ type: 'submit' })
    expect(snapshot().matches({ open: 'editing' })).toBe(true)
    expect(selectErrors(snapshot())).toEqual({
      summary: SUPPORT_TEXTS.summaryRequired,
      description: SUPPORT_TEXTS.descriptionRequired,
    })
    actor.send(change('description', 'Now described'))
    expect(selectErrors(snapshot())).toEqual({
      summary: SUPPORT_TEXTS.summaryRequired,
      description: null,
    })
    expect(calls).toEqual([])
  })

  test('sends the contract payload, clears the draft and announces success', async () => {
    const { actor, calls, emitted, open, snapshot, stored } = start()
    await open('Bug')
    actor.send(change('summary', '  Export drops cells  '))
    actor.send(change('description', 'Merged cells are lost'))
    actor.send(change('steps', '1. Export'))
    actor.send(add(file('screen.png', 2_048)))
    actor.send({ type: 'submit' })
    expect(selectIsSubmitting(snapshot())).toBe(true)
    await settle()
    expect(calls).toEqual([
      {
        type: 'Bug',
        summary: 'Export drops cells',
        description: 'Merged cells are lost',
        steps: '1. Export',
        priority: 'Medium',
        attachments: [{ filename: 'screen.png', data: 'aGVsbG8=' }],
        custom_fields: [
          { id: 'type', value: 'Bug' },
          { id: 'source', value: 'Web App' },
        ],
      },
    ])
    expect(selectIsOpen(snapshot())).toBe(false)
    expect(stored()).toBeNull()
    expect(emitted.at(-1)).toEqual({ type: 'submitted' })
    await open()
    expect(selectValues(snapshot())).toEqual(EMPTY_DRAFT)
    expect(selectAttachments(snapshot())).toEqual([])
  })

  test('a failed submit shows the failure text and keeps the form and its draft', async () => {
    const { actor, emitted, open, snapshot, stored } = start({
      submit: async () => {
        throw new Error('502')
      },
    })
    await open()
    actor.send(change('summary', 'Export drops cells'))
    actor.send(change('description', 'Merged cells are lost'))
    actor.send(add(file('log.txt')))
    const draft = stored()
    actor.send({ type: 'submit' })
    await settle()
    expect(snapshot().matches({ open: 'editing' })).toBe(true)
    expect(selectFailure(snapshot())).toBe(SUPPORT_TEXTS.failed)
    expect(stored()).toEqual(draft)
    expect(selectValues(snapshot())).toEqual(draft)
    expect(selectAttachments(snapshot())).toHaveLength(1)
    expect(emitted.some((event) => event.type === 'submitted')).toBe(false)
  })

  test("'Clear form' empties the form and forgets the draft", async () => {
    const { actor, open, snapshot, stored } = start({ draft: savedDraft })
    await open()
    actor.send(add(file('photo.jpg')))
    actor.send({ type: 'clear' })
    expect(stored()).toBeNull()
    expect(selectValues(snapshot())).toEqual(EMPTY_DRAFT)
    expect(selectAttachments(snapshot())).toEqual([])
  })

  test('closing is ignored while the ticket is being sent', async () => {
    const { actor, open, snapshot } = start({ submit: () => new Promise(() => {}) })
    await open()
    actor.send(change('summary', 'S'))
    actor.send(change('description', 'D'))
    actor.send({ type: 'submit' })
    actor.send({ type: 'close' })
    expect(selectIsSubmitting(snapshot())).toBe(true)
  })

  test.each([
    [file('virus.exe'), SUPPORT_TEXTS.attachmentType],
    [file('big.pdf', ATTACHMENT_MAX_BYTES + 1), SUPPORT_TEXTS.attachmentTooLarge],
  ])('refuses %o with its text', async (attachment, text) => {
    const { actor, open, snapshot } = start()
    await open()
    actor.send(add(attachment))
    expect(selectAttachmentError(snapshot())).toBe(text)
    expect(selectAttachments(snapshot())).toEqual([])
    actor.send(add(file('exactly-10mb.log', ATTACHMENT_MAX_BYTES)))
    expect(selectAttachmentError(snapshot())).toBeNull()
    expect(selectAttachments(snapshot())).toHaveLength(1)
  })

  test('refuses a file that would take the attachments past 20 MB in all (issue 14 fix 8)', async () => {
    const { actor, open, snapshot } = start()
    await open()
    actor.send(add(file('one.pdf', ATTACHMENT_MAX_BYTES)))
    actor.send(add(file('two.pdf', ATTACHMENT_MAX_BYTES)))
    expect(selectAttachmentError(snapshot())).toBeNull()
    actor.send(add(file('three.txt', 1)))
    expect(selectAttachmentError(snapshot())).toBe(SUPPORT_TEXTS.attachmentsTooLarge)
    expect(selectAttachments(snapshot())).toHaveLength(2)
  })

  test(`accepts at most ${ATTACHMENT_MAX_COUNT} attachments; removing one makes room`, async () => {
    const { actor, open, snapshot } = start()
    await open()
    for (let n = 0; n <= ATTACHMENT_MAX_COUNT; n++) actor.send(add(file(`shot-${n}.png`)))
    expect(selectAttachments(snapshot())).toHaveLength(ATTACHMENT_MAX_COUNT)
    expect(selectAttachmentError(snapshot())).toBe(ATTACHMENT_COUNT_TEXT)
    actor.send({ type: 'attachment.remove', index: 0 })
    expect(selectAttachmentError(snapshot())).toBeNull()
    expect(selectAttachments(snapshot()).map((a) => a.filename)[0]).toBe('shot-1.png')
  })
})

const EMPTY_ERRORS = { summary: null, description: null }
