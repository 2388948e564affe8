import { fireEvent, screen, within } from '@testing-library/react'

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
