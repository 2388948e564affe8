import { describe, expect, it } from 'vitest'
import { DEFAULT_PARSE_LIMITS } from '../../../server/ingest/types.ts'
import type { AnalysedQuestion } from '../../../server/workbooks/analyse.ts'
import { readQuestionnaireBuffer } from '../../../server/workbooks/read.ts'
import type { ExpectedQuestion, ShapeFixture } from '../../fixtures/shapes/book.ts'
import { portalExportCore, portalExportLite } from '../../fixtures/shapes/portal-export.ts'
import { vendorAssessmentCore } from '../../fixtures/shapes/vendor-core.ts'
import { vendorAssessmentFull } from '../../fixtures/shapes/vendor-full.ts'

/**
 * Every real questionnaire shape (issue 38, item 3): workbooks laid out like long vendor
 * assessments (many tabs, each with its own header row and answer columns, section headings
 * between questions, document requests) and like portal exports (question number, request,
 * response, comments; rows already answered) are read to at least 98 % of their questions, with
 * no heading read as a question and each answer cell in its tab's answer column. The fixtures
 * (tests/fixtures/shapes/) are generated; each says which rule each of its tabs checks.
 */

const keyOf = (tab: string, ref: string | null, text: string) =>
  `${tab} | ${ref ?? text.toLowerCase()}`
/** A heading's or a question's words without its leading number ('5.0 ', 'A. '). */
const title = (text: string) =>
  text
    .replace(/^\s*(?:[A-Z]|\d{1,3}(?:\.\d{1,3})*)[.)]?\s+/, '')
    .trim()
    .toLowerCase()

async function read(fixture: ShapeFixture) {
  const { tabs } = await readQuestionnaireBuffer(
    fixture.buffer,
    fixture.name,
    'xlsx',
    {},
    DEFAULT_PARSE_LIMITS,
  )
  const questions = tabs.flatMap((tab) => tab.questions.map((question) => ({ tab, question })))
  const byKey = new Map<string, AnalysedQuestion>()
  for (const { tab, question } of questions)
    byKey.set(keyOf(tab.name, question.ref, question.text), question)
  return { tabs, questions, byKey }
}

const cases: [string, () => Promise<ShapeFixture>][] = [
  ['a long vendor assessment of many tabs', vendorAssessmentFull],
  ['a short vendor assessment', vendorAssessmentCore],
  ['a portal export on one sheet', portalExportCore],
  ['a portal export of a tab per domain', portalExportLite],
]

describe.each(cases)('%s', (_name, make) => {
  it('reads at least 98 % of its questions, every one by its number, and nothing else', async () => {
    const fixture = await make()
    const { questions, byKey } = await read(fixture)
    const expected = fixture.questions.map((q) => keyOf(q.tab, q.ref, q.text))
    const missing = expected.filter((key) => !byKey.has(key))
    expect(fixture.questions.length).toBeGreaterThan(20)
    expect((expected.length - missing.length) / expected.length).toBeGreaterThanOrEqual(0.98)
    expect(missing).toEqual([])
    const extra = questions
      .map(({ tab, question }) => keyOf(tab.name, question.ref, question.text))
      .filter((key) => !expected.includes(key))
    expect(extra).toEqual([])
  })

  it('reads no heading as a question, and files each question under its heading', async () => {
    const fixture = await make()
    const { questions, byKey } = await read(fixture)
    const headings = new Set(fixture.headings.map(title))
    expect(headings.size).toBeGreaterThan(2)
    const texts = questions.map(({ question }) => question.text)
    expect(texts.filter((text) => headings.has(title(text)))).toEqual([])
    const sectionOf = (q: ExpectedQuestion) => byKey.get(keyOf(q.tab, q.ref, q.text))?.section
    const misfiled = fixture.questions
      .filter((q) => q.section && !title(sectionOf(q) ?? '').endsWith(title(q.section)))
      .map((q) => `${keyOf(q.tab, q.ref, q.text)}: ${sectionOf(q)} (not ${q.section})`)
    expect(misfiled).toEqual([])
  })

  it("puts each answer and comment in its tab's own columns, and reads nothing from tabs without questions", async () => {
    const fixture = await make()
    const { tabs, byKey } = await read(fixture)
    const wrong = fixture.questions.flatMap((q) => {
      const target = byKey.get(keyOf(q.tab, q.ref, q.text))?.target
      if (!target) return []
      const at = target.type === 'cell' ? [target.column, target.comment] : null
      return at?.[0] === q.answer && at?.[1] === q.comment
        ? []
        : [`${keyOf(q.tab, q.ref, q.text)}: ${JSON.stringify(at)} (not ${q.answer}, ${q.comment})`]
    })
    expect(wrong).toEqual([])
    for (const name of fixture.empty)
      expect(tabs.find((tab) => tab.name === name)?.questions ?? [], name).toEqual([])
  })
})
