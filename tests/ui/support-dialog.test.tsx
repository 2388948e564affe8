import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { paths } from '../../contract/paths.ts'
import { SUPPORT_TEXTS, TICKET_DRAFT_KEY, ticketResponseSchema } from '../../contract/support.ts'
import { ApiError, api } from '../../src/api/client.ts'
import { createSupportTicketLogic, supportActors } from '../../src/app/support/support-actors.ts'
import { SupportDialog } from '../../src/app/support/support-dialog.tsx'
import { useSupportTicket } from '../../src/app/support/use-support-ticket.ts'
import { Toaster, ToasterContext } from '../../src/app/toaster.tsx'
import { chooseOption, optionTexts, selectedText } from '../support/choose-option.ts'

const created = {
  status: 'success',
  ticket: { id: 7, type: 'Bug', summary: 'Export drops cells', created_at: '2025-01-01T00:00:00Z' },
}

function Harness(props: { logic: ReturnType<typeof createSupportTicketLogic> }) {
  const support = useSupportTicket(props.logic)
  return (
    <>
      <button type="button" onClick={() => support.send({ type: 'open' })}>
        Support
      </button>
      <button
        type="button"
        onClick={() => support.send({ type: 'open', ticketType: 'Feature Request' })}
      >
        Ask for a Feature
      </button>
      <SupportDialog actor={support} />
      <Toaster />
    </>
  )
}

function renderDialog(post: (...args: unknown[]) => Promise<unknown>) {
  const spy = vi.fn(post)
  const client = { ...api, post: spy as unknown as typeof api.post }
  render(
    <ToasterContext.Provider>
      <Harness logic={createSupportTicketLogic(supportActors(client))} />
    </ToasterContext.Provider>,
  )
  return { post: spy }
}

async function openDialog(name = 'Support') {
  await userEvent.click(screen.getByRole('button', { name }))
  return screen.findByRole('dialog', { name: SUPPORT_TEXTS.title })
}

const storedDraft = () => JSON.parse(localStorage.getItem(TICKET_DRAFT_KEY) ?? 'null')

async function fillRequired(dialog: HTMLElement) {
  await userEvent.type(within(dialog).getByLabelText(/summary/i), 'Export drops cells')
  await userEvent.type(within(dialog).getByLabelText(/description/i), 'Merged cells are lost')
}

describe('SupportDialog', () => {
  it("opens 'Submit a ticket' with every field, Medium priority and the 10MB hint", async () => {
    renderDialog(async () => created)
    expect(screen.queryByRole('dialog')).toBeNull()
    const dialog = await openDialog()
    expect(selectedText('Type', dialog)).toBe('Bug')
    // every type is a real choice: none is blank
    const types = await optionTexts('Type', dialog)
    expect(types.every((text) => text?.trim() !== '')).toBe(true)
    expect(selectedText('Priority', dialog)).toBe('Medium')
    expect(within(dialog).getByLabelText(/summary/i).tagName).toBe('INPUT')
    expect(within(dialog).getByLabelText(/description/i).tagName).toBe('TEXTAREA')
    expect(within(dialog).getByLabelText(/steps to reproduce/i).tagName).toBe('TEXTAREA')
    expect(within(dialog).getByLabelText('Attachments').getAttribute('accept')).toBe(
      'image/*,.pdf,.txt,.log',
    )
    expect(within(dialog).getByRole('button', { name: 'Choose files' })).toBeTruthy()
    expect(within(dialog).getByText(SUPPORT_TEXTS.attachmentHint)).toBeTruthy()
    for (const name of ['Clear form', 'Cancel', 'Submit']) {
      expect(within(dialog).getByRole('button', { name })).toBeTruthy()
    }
  })

  it("'Ask for a Feature' opens it as a Feature Request", async () => {
    renderDialog(async () => created)
    const dialog = await openDialog('Ask for a Feature')
    expect(selectedText('Type', dialog)).toBe('Feature Request')
  })

  it('a blank form says what is required and sends nothing', async () => {
    const { post } = renderDialog(async () => created)
    const dialog = await openDialog()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }))
    expect(await within(dialog).findByText(SUPPORT_TEXTS.summaryRequired)).toBeTruthy()
    expect(within(dialog).getByText(SUPPORT_TEXTS.descriptionRequired)).toBeTruthy()
    expect(post).not.toHaveBeenCalled()
  })

  it('saves the draft as the user types and restores it after Cancel', async () => {
    renderDialog(async () => created)
    let dialog = await openDialog()
    await fillRequired(dialog)
    await chooseOption('Priority', 'High', dialog)
    expect(storedDraft()).toMatchObject({ summary: 'Export drops cells', priority: 'High' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    dialog = await openDialog()
    expect((within(dialog).getByLabelText(/summary/i) as HTMLInputElement).value).toBe(
      'Export drops cells',
    )
    expect(selectedText('Priority', dialog)).toBe('High')
  })

  it('a failing submit shows the failure text and keeps the draft', async () => {
    const { post } = renderDialog(async () => {
      throw new ApiError(502, undefined, 'Bad gateway')
    })
    const dialog = await openDialog()
    await fillRequired(dialog)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }))
    expect(await within(dialog).findByText(SUPPORT_TEXTS.failed)).toBeTruthy()
    expect(post).toHaveBeenCalledOnce()
    expect(storedDraft()).toMatchObject({
      summary: 'Export drops cells',
      description: 'Merged cells are lost',
    })
    expect(screen.getByRole('dialog', { name: SUPPORT_TEXTS.title })).toBeTruthy()
    expect(screen.queryByText(SUPPORT_TEXTS.submitted)).toBeNull()
  })

  it('a successful submit posts the ticket, toasts, closes and forgets the draft', async () => {
    const { post } = renderDialog(async () => created)
    const dialog = await openDialog()
    await fillRequired(dialog)
    await userEvent.upload(
      within(dialog).getByLabelText('Attachments'),
      new File(['hello'], 'screen.png', { type: 'image/png' }),
    )
    expect(await within(dialog).findByText('screen.png')).toBeTruthy()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText(SUPPORT_TEXTS.submitted)).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(localStorage.getItem(TICKET_DRAFT_KEY)).toBeNull()
    expect(post).toHaveBeenCalledWith(
      paths.support.createTask,
      {
        type: 'Bug',
        summary: 'Export drops cells',
        description: 'Merged cells are lost',
        steps: '',
        priority: 'Medium',
        attachments: [{ filename: 'screen.png', data: btoa('hello') }],
        custom_fields: [
          { id: 'type', value: 'Bug' },
          { id: 'source', value: 'Web App' },
        ],
        browser_info: navigator.userAgent,
        url: location.href,
      },
      ticketResponseSchema,
    )
  })

  it('a pasted image is attached and can be removed; Clear form empties the form', async () => {
    renderDialog(async () => created)
    const dialog = await openDialog()
    await fillRequired(dialog)
    const image = new File(['png'], 'image.png', { type: 'image/png' })
    await act(async () => {
      fireEvent.paste(within(dialog).getByLabelText(/description/i), {
        clipboardData: { files: [image] },
      })
    })
    expect(await within(dialog).findByText('image.png')).toBeTruthy()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove image.png' }))
    expect(within(dialog).queryByText('image.png')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear form' }))
    expect((within(dialog).getByLabelText(/summary/i) as HTMLInputElement).value).toBe('')
    expect(localStorage.getItem(TICKET_DRAFT_KEY)).toBeNull()
  })
})
