import { expect, type Page, test } from '@playwright/test'
import type { PortalField } from '../contract/portal.ts'
import {
  EXPECTED,
  type ExpectedQuestion,
  PORTAL_PAGES,
  type PortalPage,
  WIZARD_STEP_2,
} from './fixtures/portals/expected.ts'
import { builtReader, type Portals, startPortals } from './support/portals.ts'

/**
 * Issue 42's portal reader (dist/extension/reader.js) on the fixture portals, in Chromium: on
 * every page it finds at least 95 % of the questions a person reads, with their words, kinds and
 * options, and nothing else; it fills each so that the page's own script (or React's state)
 * holds the value; it leaves a field that holds something alone unless told to overwrite; it
 * marks and unmarks what it filled; and it reads a wizard step by step.
 */

interface Reader {
  read(): PortalField[]
  fill(
    key: string,
    value: string,
    options?: { overwrite?: boolean },
  ): { ok: boolean; reason?: string }
  mark(keys: string[]): number
  unmark(): void
}
type PortalWindow = Window & {
  __quireReader: Reader
  portalState(): Record<string, string | string[]>
}

const MIN_ACCURACY = 0.95
const MARK = 'data-quire-filled'

let portals: Portals
let readerPath: string

test.beforeAll(async () => {
  readerPath = builtReader()
  portals = await startPortals()
})
test.afterAll(async () => {
  await portals?.close()
})

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()
const sameOptions = (a: string[] = [], b: string[] = []) =>
  a.length === b.length && a.every((option, index) => normal(option) === normal(b[index] ?? ''))

async function openPortal(page: Page, name: PortalPage) {
  await page.goto(portals.url(name))
  // every page's own record of its answers is there once its scripts have run (React's after
  // its first render)
  await page.waitForFunction(
    () => typeof (window as unknown as PortalWindow).portalState === 'function',
  )
  await page.addScriptTag({ path: readerPath })
}

const read = (page: Page) =>
  page.evaluate(() => (window as unknown as PortalWindow).__quireReader.read())

const fill = (page: Page, key: string, value: string, overwrite?: boolean) =>
  page.evaluate(
    ([key, value, overwrite]) =>
      (window as unknown as PortalWindow).__quireReader.fill(
        key,
        value,
        overwrite ? { overwrite } : undefined,
      ),
    [key, value, overwrite] as const,
  )

/** The page's own record, each answer as words (React's lists joined as the pages join them). */
async function pageState(page: Page): Promise<Record<string, string>> {
  const state = await page.evaluate(() => (window as unknown as PortalWindow).portalState())
  return Object.fromEntries(
    Object.entries(state).map(([key, value]) => [
      key,
      normal(Array.isArray(value) ? value.join(', ') : String(value)),
    ]),
  )
}

interface Pair {
  expected: ExpectedQuestion
  field: PortalField
}

/**
 * Each expected question paired with the field read with its words, kind and options; the
 * expected ones no field answers, and the fields read that no question expects.
 */
function compare(fields: PortalField[], expected: ExpectedQuestion[]) {
  const left = [...fields]
  const pairs: Pair[] = []
  const missing: ExpectedQuestion[] = []
  for (const question of expected) {
    const index = left.findIndex(
      (field) =>
        normal(field.question) === normal(question.question) &&
        field.kind === question.kind &&
        (question.options === undefined || sameOptions(field.options, question.options)),
    )
    if (index < 0) missing.push(question)
    else pairs.push({ expected: question, field: left.splice(index, 1)[0] as PortalField })
  }
  return { pairs, missing, unexpected: left }
}

const describeField = (field: PortalField) =>
  `${field.kind} "${field.question}"${field.options.length ? ` [${field.options.join(' | ')}]` : ''}`

/** Reads a page and checks what it found against what a person reads there. */
async function expectQuestions(page: Page, label: string, expected: ExpectedQuestion[]) {
  const fields = await read(page)
  const { pairs, missing, unexpected } = compare(fields, expected)
  const accuracy = pairs.length / expected.length
  const summary = `${label}: ${pairs.length}/${expected.length} questions found`
  test.info().annotations.push({ type: 'accuracy', description: summary })
  console.log(summary)
  expect(
    accuracy,
    `${summary}; missing:\n${missing.map((q) => `  ${q.kind} "${q.question}"`).join('\n')}\nread:\n${fields.map((f) => `  ${describeField(f)}`).join('\n')}`,
  ).toBeGreaterThanOrEqual(MIN_ACCURACY)
  expect(unexpected.map(describeField), `${label}: read what is not a question`).toEqual([])
  // in the order a person reads them
  const order = pairs.map((pair) => fields.indexOf(pair.field))
  expect(order, `${label}: read out of page order`).toEqual([...order].sort((a, b) => a - b))
  // keys name one field each, so that a fill finds the field it was read from
  expect(new Set(fields.map((field) => field.key)).size, `${label}: keys shared`).toBe(
    fields.length,
  )
  for (const { expected: question, field } of pairs)
    expect(normal(field.value), `what "${question.question}" holds`).toBe(
      normal(question.holds ?? ''),
    )
  return pairs
}

/**
 * What to put in a field, and the words the page should then hold: text for a text field; for
 * a choice, "Yes", "No" or "N/A" where its options allow (each field its turn), else an option's
 * own words; for checkboxes, the first and the last options.
 */
function answerFor(field: PortalField, turn: number): { value: string; holds: string } {
  if (field.kind === 'text' || field.kind === 'textarea' || field.kind === 'editable') {
    const value = `Quire answer ${turn + 1}: see our security overview, section ${turn + 1}.`
    return { value, holds: value }
  }
  const options = field.options
  const named = (words: string) => options.find((option) => normal(option) === normal(words))
  if (field.kind === 'checkbox') {
    const chosen = [...new Set([options[0], options.at(-1)])] as string[]
    return { value: chosen.join(', '), holds: chosen.join(', ') }
  }
  const family: [string, string | undefined][] = [
    ['Yes', named('Yes') ?? named('Implemented')],
    ['No', named('No')],
    ['N/A', named('N/A') ?? named('Not applicable')],
  ]
  const usable = family.filter((entry): entry is [string, string] => entry[1] !== undefined)
  if (usable.length && turn % 4 !== 3) {
    const [value, option] = usable[turn % usable.length] as [string, string]
    return { value, holds: option }
  }
  // an option by its own words: one that is not first, as a person rarely picks the first
  const option = options[Math.min(1, options.length - 1)] as string
  return { value: option, holds: option }
}

/** Fills every field read (overwriting what a page held) and checks the page's own record. */
async function fillAll(page: Page, pairs: Pair[]) {
  const wanted: Record<string, string> = {}
  for (const [turn, { expected: question, field }] of pairs.entries()) {
    const { value, holds } = answerFor(field, turn)
    const result = await fill(page, field.key, value, Boolean(question.holds))
    expect(result, `fill ${describeField(field)} with "${value}"`).toEqual({ ok: true })
    wanted[question.state] = normal(holds)
  }
  await expect.poll(async () => pick(await pageState(page), Object.keys(wanted))).toEqual(wanted)
  // the reader sees what it filled
  const after = new Map((await read(page)).map((field) => [field.key, field]))
  for (const { expected: question, field } of pairs)
    expect(normal(after.get(field.key)?.value ?? ''), `read back "${question.question}"`).toBe(
      wanted[question.state],
    )
  return wanted
}

const pick = (state: Record<string, string>, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, state[key] ?? '']))

/** How many elements carry the mark, in the page, its open shadow roots and its frames. */
const marked = (page: Page) =>
  page.evaluate((attribute) => {
    let count = 0
    const visit = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.hasAttribute(attribute)) count += 1
        if (element.shadowRoot) visit(element.shadowRoot)
        if (element instanceof HTMLIFrameElement && element.contentDocument)
          visit(element.contentDocument)
      }
    }
    visit(document)
    return count
  }, MARK)

test.describe('the portal reader on fixture portals (issue 42)', () => {
  for (const name of PORTAL_PAGES.filter((page) => page !== 'wizard')) {
    test(`${name}: reads the questions a person reads there, and nothing else`, async ({
      page,
    }) => {
      await openPortal(page, name)
      await expectQuestions(page, name, EXPECTED[name])
    })

    test(`${name}: fills each field so the page's own state holds it, overwriting only when told`, async ({
      page,
    }) => {
      await openPortal(page, name)
      const pairs = await expectQuestions(page, name, EXPECTED[name])
      // what the page opened with stays unless the fill is told to overwrite it
      for (const { expected: question, field } of pairs.filter((pair) => pair.expected.holds)) {
        expect(await fill(page, field.key, 'Replaced without asking')).toMatchObject({ ok: false })
        expect((await pageState(page))[question.state] ?? '').not.toBe(
          normal('Replaced without asking'),
        )
        expect(normal((await read(page)).find((one) => one.key === field.key)?.value ?? '')).toBe(
          normal(question.holds ?? ''),
        )
      }
      const wanted = await fillAll(page, pairs)

      // now every field holds something: a second fill is refused, and made when confirmed
      const text = pairs.find((pair) => ['text', 'textarea', 'editable'].includes(pair.field.kind))
      if (text) {
        const { field, expected: question } = text
        const refused = await fill(page, field.key, 'A second answer')
        expect(refused.ok).toBe(false)
        expect(refused.reason).toBeTruthy()
        expect((await pageState(page))[question.state]).toBe(wanted[question.state])
        expect(await fill(page, field.key, 'A second answer', true)).toEqual({ ok: true })
        await expect
          .poll(async () => (await pageState(page))[question.state])
          .toBe(normal('A second answer'))
      }
      const choice = pairs.find((pair) => ['select', 'radio'].includes(pair.field.kind))
      if (choice) {
        const { field, expected: question } = choice
        const other = field.options.find((option) => normal(option) !== wanted[question.state])
        if (other) {
          expect((await fill(page, field.key, other)).ok).toBe(false)
          expect((await pageState(page))[question.state]).toBe(wanted[question.state])
          expect(await fill(page, field.key, other, true)).toEqual({ ok: true })
          await expect.poll(async () => (await pageState(page))[question.state]).toBe(normal(other))
        }
      }
    })
  }

  test('marks the fields it filled until it is told to unmark them', async ({ page }) => {
    for (const name of ['plain', 'shadow', 'iframe'] as const) {
      await openPortal(page, name)
      const fields = await read(page)
      expect(await marked(page)).toBe(0)
      const keys = fields.slice(0, 4).map((field) => field.key)
      expect(
        await page.evaluate(
          (keys) => (window as unknown as PortalWindow).__quireReader.mark(keys),
          keys,
        ),
      ).toBe(4)
      expect(await marked(page), name).toBeGreaterThanOrEqual(4)
      // marking again adds nothing, and a key the page lacks marks nothing
      expect(
        await page.evaluate(
          (keys) =>
            (window as unknown as PortalWindow).__quireReader.mark([...keys, 'text:no-such-field']),
          keys,
        ),
      ).toBe(4)
      const all = await page.evaluate(
        (keys) => (window as unknown as PortalWindow).__quireReader.mark(keys),
        fields.map((field) => field.key),
      )
      expect(all).toBe(fields.length)
      expect(await marked(page)).toBeGreaterThanOrEqual(fields.length)
      await page.evaluate(() => (window as unknown as PortalWindow).__quireReader.unmark())
      expect(await marked(page), `${name}: marks left after unmark`).toBe(0)
    }
  })

  test('wizard: reads the step in sight, then the next step once the person moves on', async ({
    page,
  }) => {
    await openPortal(page, 'wizard')
    const first = await expectQuestions(page, 'wizard step 1', EXPECTED.wizard)
    const filledFirst = await fillAll(page, first)

    await page.getByRole('button', { name: 'Next' }).click()
    await expect(page.getByText('Step 2 of 2')).toBeVisible()
    const second = await expectQuestions(page, 'wizard step 2', WIZARD_STEP_2)
    // the first step is out of sight: none of its fields is read, nor filled
    const keys = new Set((await read(page)).map((field) => field.key))
    for (const { field } of first) {
      expect(keys.has(field.key), `step 1's "${field.question}" read on step 2`).toBe(false)
      expect((await fill(page, field.key, 'x', true)).ok).toBe(false)
    }
    const filledSecond = await fillAll(page, second)
    // what the page holds: both steps' answers
    expect(pick(await pageState(page), Object.keys({ ...filledFirst, ...filledSecond }))).toEqual({
      ...filledFirst,
      ...filledSecond,
    })
  })
})
