import { fireEvent, screen, waitFor, within } from '@testing-library/react'

/**
 * Chooses `option` in the select named `name` (an Ark Select: a combobox button and a listbox) as a
 * user does: opens it, then clicks the option. The options are looked up in the whole document:
 * outside a dialog the list is rendered in a portal.
 */
export async function chooseOption(
  name: string | RegExp,
  option: string | RegExp,
  scope: HTMLElement = document.body,
) {
  fireEvent.click(within(scope).getByRole('combobox', { name }))
  fireEvent.click(await screen.findByRole('option', { name: option }))
}

/** The text a select shows for its value (its trigger's). */
export const selectedText = (name: string | RegExp, scope: HTMLElement = document.body) =>
  within(scope).getByRole('combobox', { name }).textContent

/** The listbox a select's trigger controls, once it shows as open. */
async function openList(trigger: HTMLElement) {
  return waitFor(() => {
    const list = document.getElementById(trigger.getAttribute('aria-controls') ?? '')
    if (list?.getAttribute('data-state') !== 'open') throw new Error('the list has not opened')
    return list
  })
}

/**
 * The options the select named `name` offers, in order: opens that select's own list (never
 * another select's that is still closing), reads it, closes it with Escape and waits until it has.
 */
export async function optionTexts(name: string | RegExp, scope: HTMLElement = document.body) {
  const trigger = await within(scope).findByRole('combobox', { name })
  fireEvent.click(trigger)
  const list = await openList(trigger)
  const texts = within(list)
    .getAllByRole('option')
    .map((option) => option.textContent)
  fireEvent.keyDown(list, { key: 'Escape' })
  await waitFor(() => {
    if (list.getAttribute('data-state') === 'open') throw new Error('the list has not closed')
  })
  return texts
}
