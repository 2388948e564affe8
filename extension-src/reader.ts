/**
 * The portal reader (issue 42): injected into the tab a person asks about, it lists the page's
 * question fields as a person reads them, and fills one on request. Framework-free; nothing
 * leaves the page but what `read()` returns (the question's words, the field's kind, its options
 * and what it holds).
 *
 * Built on its own as dist/extension/reader.js; injected, it defines
 * `window.__quireReader = { read, fill }`.
 */

import type { PortalField } from '../contract/portal.ts'
import { optionFor, type PortalFieldKind } from '../contract/portal-options.ts'

export type FieldKind = PortalFieldKind
export type Field = PortalField

export interface FillResult {
  ok: boolean
  reason?: string
}

interface Found {
  field: Field
  /** The elements that make up the field: one control, or a group's inputs. */
  controls: HTMLElement[]
}

export { optionFor }

/** An attribute value quoted for a selector (CSS.escape is not in every engine). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`
const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
const SKIPPED_INPUTS = new Set(['hidden', 'submit', 'button', 'reset', 'image', 'file', 'password'])

/** The words of an element without those of the controls inside it. */
function ownText(element: Element): string {
  const copy = element.cloneNode(true) as Element
  for (const inner of copy.querySelectorAll('input, select, textarea, button, script, style'))
    inner.remove()
  return clean(copy.textContent)
}

function byIds(doc: Document | ShadowRoot, ids: string): string {
  return clean(
    ids
      .split(/\s+/)
      .map((id) => (doc as Document).getElementById?.(id)?.textContent ?? '')
      .join(' '),
  )
}

/** The text a person reads just before an element (its previous siblings, then its parent's). */
function textBefore(element: Element): string {
  let node: Element | null = element
  for (let depth = 0; node && depth < 4; depth++) {
    let sibling = node.previousElementSibling
    while (sibling) {
      const text = ownText(sibling)
      if (text) return text
      sibling = sibling.previousElementSibling
    }
    node = node.parentElement
    if (node && ['FORM', 'BODY'].includes(node.tagName)) break
  }
  return ''
}

/** The question's words for one control, as a person reads them. */
function questionOf(control: HTMLElement, root: Document | ShadowRoot): string {
  const labelledBy = control.getAttribute('aria-labelledby')
  if (labelledBy) {
    const text = byIds(root, labelledBy)
    if (text) return text
  }
  const aria = clean(control.getAttribute('aria-label'))
  if (aria) return aria
  const id = control.id
  if (id) {
    const label = (root as Document).querySelector?.(`label[for=${quoted(id)}]`)
    if (label && ownText(label)) return ownText(label)
  }
  const wrapping = control.closest('label')
  if (wrapping && ownText(wrapping)) return ownText(wrapping)
  // a table of questions: the row's other cells
  const cell = control.closest('td, th')
  const row = cell?.closest('tr')
  if (cell && row) {
    const words = [...row.cells]
      .filter((other) => other !== cell && !other.contains(control))
      .map(ownText)
      .filter(Boolean)
      .join(' ')
    if (words) return words
  }
  return textBefore(control) || clean(control.getAttribute('placeholder'))
}

/** The label of one option of a group (a radio or a checkbox). */
function optionLabel(input: HTMLInputElement, root: Document | ShadowRoot): string {
  if (input.id) {
    const label = (root as Document).querySelector?.(`label[for=${quoted(input.id)}]`)
    if (label && ownText(label)) return ownText(label)
  }
  const wrapping = input.closest('label')
  if (wrapping) return ownText(wrapping)
  return clean(input.getAttribute('aria-label')) || input.value
}

/** A group's question: its fieldset's legend, its role=group's label, or the text before it. */
function groupQuestion(inputs: HTMLInputElement[], root: Document | ShadowRoot): string {
  const first = inputs[0] as HTMLInputElement
  const fieldset = first.closest('fieldset')
  const legend = fieldset?.querySelector('legend')
  if (legend && ownText(legend)) return ownText(legend)
  const group = first.closest('[role="radiogroup"], [role="group"]')
  if (group) {
    const labelled = group.getAttribute('aria-labelledby')
    if (labelled && byIds(root, labelled)) return byIds(root, labelled)
    if (clean(group.getAttribute('aria-label'))) return clean(group.getAttribute('aria-label'))
  }
  const cell = first.closest('td, th')
  const row = cell?.closest('tr')
  if (cell && row) {
    const words = [...row.cells]
      .filter((other) => other !== cell)
      .map(ownText)
      .filter(Boolean)
      .join(' ')
    if (words) return words
  }
  const container = fieldset ?? group ?? first.parentElement?.parentElement ?? first
  return textBefore(container)
}

/** Every document and open shadow root to read: the page, its open shadows, same-origin frames. */
function roots(doc: Document): (Document | ShadowRoot)[] {
  const found: (Document | ShadowRoot)[] = []
  const visit = (root: Document | ShadowRoot) => {
    found.push(root)
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) visit(element.shadowRoot)
      if (element.tagName === 'IFRAME') {
        try {
          const inner = (element as HTMLIFrameElement).contentDocument
          if (inner?.body) visit(inner)
        } catch {
          // another origin's frame: not ours to read
        }
      }
    }
  }
  visit(doc)
  return found
}

function hidden(element: HTMLElement) {
  if (element.hidden || element.closest('[hidden], [aria-hidden="true"]')) return true
  const style = element.ownerDocument.defaultView?.getComputedStyle(element)
  return style?.display === 'none' || style?.visibility === 'hidden'
}

/** The page's question fields, in the order a person reads them. */
export function findFields(doc: Document): Found[] {
  const fields: Found[] = []
  const seenGroups = new Set<string>()
  roots(doc).forEach((root, rootIndex) => {
    const controls = root.querySelectorAll<HTMLElement>(
      'input, textarea, select, [contenteditable=""], [contenteditable="true"]',
    )
    controls.forEach((control, index) => {
      if (hidden(control) || (control as HTMLInputElement).disabled) return
      const tag = control.tagName
      // a control without an id or a name is keyed by its question's words (below)
      const base = control.id || control.getAttribute('name') || `#${rootIndex}.${index}`
      if (tag === 'INPUT') {
        const input = control as HTMLInputElement
        const type = (input.type || 'text').toLowerCase()
        if (SKIPPED_INPUTS.has(type)) return
        if (type === 'radio' || type === 'checkbox') {
          const name = input.name
          const groupKey = `${rootIndex}:${type}:${name || base}`
          if (seenGroups.has(groupKey)) return
          seenGroups.add(groupKey)
          const inputs = name
            ? [
                ...root.querySelectorAll<HTMLInputElement>(
                  `input[type="${type}"][name=${quoted(name)}]`,
                ),
              ]
            : [input]
          const options = inputs.map((one) => optionLabel(one, root))
          fields.push({
            field: {
              key: `${type}:${name || base}`,
              question: groupQuestion(inputs, root),
              kind: type,
              options,
              value: inputs
                .filter((one) => one.checked)
                .map((one) => optionLabel(one, root))
                .join(', '),
            },
            controls: inputs,
          })
          return
        }
        fields.push({
          field: {
            key: `text:${base}`,
            question: questionOf(input, root),
            kind: 'text',
            options: [],
            value: input.value,
          },
          controls: [input],
        })
        return
      }
      if (tag === 'TEXTAREA') {
        const area = control as HTMLTextAreaElement
        fields.push({
          field: {
            key: `textarea:${base}`,
            question: questionOf(area, root),
            kind: 'textarea',
            options: [],
            value: area.value,
          },
          controls: [area],
        })
        return
      }
      if (tag === 'SELECT') {
        const select = control as HTMLSelectElement
        const options = [...select.options]
          .filter((option) => option.value !== '')
          .map((option) => clean(option.text))
        const chosen = select.selectedOptions[0]
        fields.push({
          field: {
            key: `select:${base}`,
            question: questionOf(select, root),
            kind: 'select',
            options,
            value: chosen && chosen.value !== '' ? clean(chosen.text) : '',
          },
          controls: [select],
        })
        return
      }
      fields.push({
        field: {
          key: `editable:${base}`,
          question: questionOf(control, root),
          kind: 'editable',
          options: [],
          value: clean(control.textContent),
        },
        controls: [control],
      })
    })
  })
  const kept = fields.filter((found) => found.field.question !== '')
  // keys a later read finds again: an unnamed control's is its question's words
  const used = new Map<string, number>()
  for (const found of kept) {
    const [kind, base] = found.field.key.split(/:(.*)/s) as [string, string]
    if (!base.startsWith('#')) continue
    const words = normal(found.field.question).split(' ').slice(0, 12).join('-') || 'field'
    const key = `${kind}:q-${words}`
    const seen = used.get(key) ?? 0
    used.set(key, seen + 1)
    found.field.key = seen ? `${key}-${seen + 1}` : key
  }
  return kept
}

const normal = (text: string) =>
  clean(text)
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '')

/** Sets a value the way the page's framework sees a person's typing (React, Vue, Angular). */
function setNative(
  control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
) {
  const proto = Object.getPrototypeOf(control) as object
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set
  if (setter) setter.call(control, value)
  else control.value = value
  control.dispatchEvent(new Event('input', { bubbles: true }))
  control.dispatchEvent(new Event('change', { bubbles: true }))
}

function setChecked(input: HTMLInputElement, checked: boolean) {
  if (input.checked === checked) return
  // a click is what frameworks listen to; it toggles and fires input and change
  input.click()
  if (input.checked !== checked) {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set
    setter?.call(input, checked)
    input.dispatchEvent(new Event('change', { bubbles: true }))
  }
}

/** Fills one field; a field holding something is left as it is unless `overwrite`. */
export function fillField(
  doc: Document,
  key: string,
  value: string,
  options: { overwrite?: boolean } = {},
): FillResult {
  const found = findFields(doc).find((entry) => entry.field.key === key)
  if (!found) return { ok: false, reason: 'No such field on the page.' }
  if (found.field.value.trim() && !options.overwrite)
    return { ok: false, reason: 'The field already holds an answer.' }
  const { field, controls } = found
  if (field.kind === 'text' || field.kind === 'textarea') {
    setNative(controls[0] as HTMLInputElement, value)
    return { ok: true }
  }
  if (field.kind === 'editable') {
    const element = controls[0] as HTMLElement
    element.textContent = value
    element.dispatchEvent(new InputEvent('input', { bubbles: true, data: value }))
    return { ok: true }
  }
  if (field.kind === 'select') {
    const index = optionFor(field.options, value)
    if (index < 0) return { ok: false, reason: 'No option matches the answer.' }
    const select = controls[0] as HTMLSelectElement
    const option = [...select.options].filter((one) => one.value !== '')[index] as HTMLOptionElement
    setNative(select, option.value)
    return { ok: true }
  }
  if (field.kind === 'radio') {
    const index = optionFor(field.options, value)
    if (index < 0) return { ok: false, reason: 'No option matches the answer.' }
    setChecked(controls[index] as HTMLInputElement, true)
    return { ok: true }
  }
  // checkboxes: each option the answer names, by its words
  const wanted = value
    .split(/[,;\n]/)
    .map(normal)
    .filter(Boolean)
  const chosen = field.options.map((option) => wanted.includes(normal(option)))
  if (!chosen.some(Boolean)) return { ok: false, reason: 'No option matches the answer.' }
  chosen.forEach((on, index) => {
    setChecked(controls[index] as HTMLInputElement, on)
  })
  return { ok: true }
}

const MARK = 'data-quire-filled'

/**
 * Marks filled fields on the page (an outline, and the attribute `data-quire-filled`) until
 * `unmark` is called, when the panel closes.
 */
export function markFields(doc: Document, keys: string[]) {
  const wanted = new Set(keys)
  let marked = 0
  for (const found of findFields(doc)) {
    if (!wanted.has(found.field.key)) continue
    for (const control of found.controls) {
      if (!control.hasAttribute(MARK))
        control.setAttribute(MARK, control.style.getPropertyValue('outline'))
      control.style.setProperty('outline', '2px solid #16a34a')
      control.style.setProperty('outline-offset', '2px')
    }
    marked += 1
  }
  return marked
}

export function unmarkFields(doc: Document) {
  for (const root of roots(doc))
    for (const control of root.querySelectorAll<HTMLElement>(`[${MARK}]`)) {
      const before = control.getAttribute(MARK) ?? ''
      if (before) control.style.setProperty('outline', before)
      else control.style.removeProperty('outline')
      control.style.removeProperty('outline-offset')
      control.removeAttribute(MARK)
    }
}

export interface QuireReader {
  read(): Field[]
  fill(key: string, value: string, options?: { overwrite?: boolean }): FillResult
  mark(keys: string[]): number
  unmark(): void
}

/** What the page gets when the reader is injected. */
export function install(win: Window & { __quireReader?: QuireReader }) {
  win.__quireReader = {
    read: () => findFields(win.document).map((found) => ({ ...found.field })),
    fill: (key, value, options) => fillField(win.document, key, value, options),
    mark: (keys) => markFields(win.document, keys),
    unmark: () => unmarkFields(win.document),
  }
}
