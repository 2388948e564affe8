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
import { optionFor, optionsNamed, type PortalFieldKind } from '../contract/portal-options.ts'

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
/** A question's words without the marks of a required field ("Email *", "Name (required)"). */
const words = (text: string) =>
  clean(text)
    .replace(/^\*+\s*|\s*(\*+|\(required\))$/gi, '')
    .trim()
/** Inputs that hold no answer: hidden, buttons, files, secrets, and a site's search box. */
const SKIPPED_INPUTS = new Set([
  'hidden',
  'submit',
  'button',
  'reset',
  'image',
  'file',
  'password',
  'search',
])
const CONTROLS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'

/** The words of an element as a person reads them: without its controls and hidden parts. */
function ownText(element: Element): string {
  const copy = element.cloneNode(true) as Element
  for (const inner of copy.querySelectorAll(
    'input, select, textarea, button, script, style, template, [hidden], [aria-hidden="true"]',
  ))
    inner.remove()
  return clean(copy.textContent)
}

function byIds(doc: Document | ShadowRoot, ids: string): string {
  return clean(
    ids
      .split(/\s+/)
      .map((id) => {
        const element = (doc as Document).getElementById?.(id)
        return element ? ownText(element) : ''
      })
      .join(' '),
  )
}

/**
 * The text a person reads just before an element (its previous siblings, then its parent's),
 * not looking outside `within` when it is given.
 */
function textBefore(element: Element, within?: Element): string {
  let node: Element | null = element
  for (let depth = 0; node && node !== within && depth < 4; depth++) {
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

/** A table of questions: the words of the control's row, but for its own cell. */
function rowWords(control: Element): string {
  const cell = control.closest('td, th')
  const row = cell?.closest('tr')
  if (!cell || !row) return ''
  return [...row.cells]
    .filter((other) => other !== cell && !other.contains(control))
    .map(ownText)
    .filter(Boolean)
    .join(' ')
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
  return rowWords(control) || textBefore(control) || clean(control.getAttribute('placeholder'))
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

/** The nearest element that holds every one of `elements`. */
function commonAncestor(elements: Element[]): Element {
  let box = (elements[0] as Element).parentElement
  while (box && !elements.every((element) => box?.contains(element))) box = box.parentElement
  return box ?? (elements[0] as Element)
}

/** The label a fieldset (its legend) or an ARIA group (aria-labelledby, aria-label) gives. */
function groupLabel(group: Element, root: Document | ShadowRoot): string {
  const labelled = group.getAttribute('aria-labelledby')
  if (labelled && byIds(root, labelled)) return byIds(root, labelled)
  if (clean(group.getAttribute('aria-label'))) return clean(group.getAttribute('aria-label'))
  const legend = group.tagName === 'FIELDSET' ? group.querySelector(':scope > legend') : null
  return legend ? ownText(legend) : ''
}

/**
 * A group's question: the label of the fieldset or ARIA group that is the group's own; inside
 * one that holds other questions too (a section), the text just before the group; a table row's
 * words; a lone box's own label; else the text before it.
 */
function groupQuestion(inputs: HTMLInputElement[], root: Document | ShadowRoot): string {
  const box = commonAncestor(inputs)
  const group = (inputs.length > 1 ? box : (inputs[0] as HTMLInputElement)).closest(
    'fieldset, [role="radiogroup"], [role="group"]',
  )
  if (group) {
    const own =
      group === box ||
      [...group.querySelectorAll<HTMLElement>(CONTROLS)].every(
        (control) =>
          inputs.includes(control as HTMLInputElement) ||
          SKIPPED_INPUTS.has((control as HTMLInputElement).type),
      )
    const text = own ? '' : textBefore(box, group)
    if (text) return text
    const label = groupLabel(group, root)
    if (label) return label
  }
  const row = rowWords(box)
  if (row) return row
  if (inputs.length === 1) {
    const label = optionLabel(inputs[0] as HTMLInputElement, root)
    if (label && label !== (inputs[0] as HTMLInputElement).value) return label
  }
  return textBefore(box)
}

/** Whether a person sees the element: not hidden by an attribute, a style or an ancestor's. */
function hidden(element: HTMLElement): boolean {
  if (element.hidden || element.closest('[hidden], [aria-hidden="true"], [inert]')) return true
  const visible = (element as { checkVisibility?: (options?: object) => boolean }).checkVisibility
  if (typeof visible === 'function') return !visible.call(element, { visibilityProperty: true })
  // engines without checkVisibility: a display of none on the element or on any ancestor
  const view = element.ownerDocument.defaultView
  let node: Element | null = element
  while (node) {
    if (view?.getComputedStyle(node).display === 'none') return true
    node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null)
  }
  return view?.getComputedStyle(element).visibility === 'hidden'
}

/** A radio or a checkbox drawn by its label (the box itself out of sight) is still seen. */
function unseen(control: HTMLElement): boolean {
  if (!hidden(control)) return false
  const input = control as HTMLInputElement
  if (control.tagName !== 'INPUT' || (input.type !== 'radio' && input.type !== 'checkbox'))
    return true
  return ![...(input.labels ?? [])].some((label) => !hidden(label as HTMLElement))
}

interface Placed {
  control: HTMLElement
  root: Document | ShadowRoot
  /** Which document or shadow root it is in, in reading order. */
  rootIndex: number
}

/**
 * Every control of the page in reading order, with its document or shadow root: an open shadow
 * root's and a same-origin frame's controls where their host stands in the page.
 */
function placedControls(doc: Document): Placed[] {
  const placed: Placed[] = []
  let roots = 0
  const visit = (root: Document | ShadowRoot) => {
    const rootIndex = roots++
    for (const element of root.querySelectorAll('*')) {
      if (element.matches(CONTROLS))
        placed.push({ control: element as HTMLElement, root, rootIndex })
      if (element.shadowRoot) visit(element.shadowRoot)
      if (element.tagName === 'IFRAME' && !hidden(element as HTMLElement)) {
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
  return placed
}

/** Every document and open shadow root: the page, its open shadows, same-origin frames. */
function roots(doc: Document): (Document | ShadowRoot)[] {
  return [...new Set(placedControls(doc).map((placed) => placed.root)), doc]
}

/** The choices of a select a person can pick: not a blank, disabled or hidden placeholder. */
const choices = (select: HTMLSelectElement) =>
  [...select.options].filter((option) => option.value !== '' && !option.disabled && !option.hidden)

/** Whether a control holds no answer for a person to give (read-only, disabled). */
const inert = (control: HTMLElement) =>
  (control as HTMLInputElement).disabled ||
  (control as HTMLInputElement).readOnly === true ||
  control.getAttribute('aria-readonly') === 'true'

/** The page's question fields, in the order a person reads them. */
export function findFields(doc: Document): Found[] {
  const fields: Found[] = []
  const seenGroups = new Set<string>()
  placedControls(doc).forEach(({ control, root, rootIndex }, index) => {
    if (inert(control) || unseen(control)) return
    const tag = control.tagName
    // a control without an id or a name is keyed by its question's words (below)
    const base = control.id || control.getAttribute('name') || `#${index}`
    if (tag === 'INPUT') {
      const input = control as HTMLInputElement
      const type = (input.type || 'text').toLowerCase()
      if (SKIPPED_INPUTS.has(type) || input.closest('search, [role="search"]')) return
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
            question: words(groupQuestion(inputs, root)),
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
          question: words(questionOf(input, root)),
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
          question: words(questionOf(area, root)),
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
      const options = choices(select)
      const chosen = select.selectedOptions[0]
      fields.push({
        field: {
          key: `select:${base}`,
          question: words(questionOf(select, root)),
          kind: 'select',
          options: options.map((option) => clean(option.text)),
          value: chosen && options.includes(chosen) ? clean(chosen.text) : '',
        },
        controls: [select],
      })
      return
    }
    fields.push({
      field: {
        key: `editable:${base}`,
        question: words(questionOf(control, root)),
        kind: 'editable',
        options: [],
        value: clean(control.textContent),
      },
      controls: [control],
    })
  })
  const kept = fields.filter((found) => found.field.question !== '')
  // keys a later read finds again: an unnamed control's is its question's words, and a key two
  // fields would share (the same id in two shadow roots or frames) is numbered in page order
  const used = new Map<string, number>()
  for (const found of kept) {
    const [kind, base] = found.field.key.split(/:(.*)/s) as [string, string]
    const key = base.startsWith('#')
      ? `${kind}:q-${normal(found.field.question).split(' ').slice(0, 12).join('-') || 'field'}`
      : found.field.key
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
    setNative(select, (choices(select)[index] as HTMLOptionElement).value)
    return { ok: true }
  }
  if (field.kind === 'radio') {
    const index = optionFor(field.options, value)
    if (index < 0) return { ok: false, reason: 'No option matches the answer.' }
    setChecked(controls[index] as HTMLInputElement, true)
    return { ok: true }
  }
  // checkboxes: each option the answer names (a lone box: ticked by a Yes)
  const named = optionsNamed(field.options, value)
  const chosen = field.options.map((option) => named.includes(option))
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
