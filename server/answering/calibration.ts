import { readFileSync } from 'node:fs'
import { type ConfidenceBand, confidenceBand } from '../../contract/questionnaires.ts'
import type { QuestionShape } from './parts.ts'
import { isOtherProductNote, OTHER_PRODUCT_CAP } from './products.ts'
import { PARTLY_STATED_CAP, PARTLY_STATED_PREFIX } from './qualifiers.ts'
import { leadingChoice } from './text.ts'
import { THIRD_PARTY_CAP, THIRD_PARTY_PREFIX } from './third-party.ts'
import { TRANSFERRED } from './transfer.ts'
import { type Candidate, CORROBORATED, PRACTICE_DENIED, STATED } from './types.ts'

/**
 * Confidence that means something: each kind of answer (a library answer to the question itself,
 * one transferred from another framework's question, a document sentence that states or denies
 * the practice) states the probability of being right that the evaluation measured for it. The
 * engines give a raw score; the shipped table (calibration.json, fitted by
 * `npm run eval:answers -- --fit` on the development protocols, each checked on a fit that left
 * it out) maps it onto measured accuracy.
 */

/**
 * The kinds of answer, each given (and capped) by one rule in a room of its own: `library`
 * (library-answer.ts; agreement.ts when the records that hold the question disagree; age.ts when
 * it is past its review), `transferred` (transfer.ts), `stated` (stated.ts, extractive.ts),
 * `corroborated` (extractive.ts), `denied` (stated.ts), `partial` (partial.ts), `third_party`
 * (third-party.ts: who says it is parties.ts).
 */
export const ANSWER_KINDS = [
  'library',
  'transferred',
  'stated',
  'corroborated',
  'denied',
  'partial',
  'third_party',
  'other_product',
] as const
export type AnswerKind = (typeof ANSWER_KINDS)[number]

/** The kind of an answer, by the reason the engine gave for it. */
export function kindOfReason(reason: string | null | undefined): AnswerKind {
  if (reason === TRANSFERRED) return 'transferred'
  if (reason === STATED) return 'stated'
  if (reason === CORROBORATED) return 'corroborated'
  if (reason === PRACTICE_DENIED) return 'denied'
  if (reason?.startsWith(PARTLY_STATED_PREFIX)) return 'partial'
  if (reason?.startsWith(THIRD_PARTY_PREFIX)) return 'third_party'
  if (isOtherProductNote(reason)) return 'other_product'
  return 'library'
}

/**
 * Per kind, per kind and shape of question ('stated/qualified': a document sentence for a
 * practice with qualifiers), and per kind and age band of the library entry it rests on
 * ('library@2y+'), points (raw score, probability of being right), raw ascending. A kind and
 * shape, or kind and band, with too few measured answers to fit has no points of its own: the
 * kind's apply.
 */
export type CalibrationTable = Partial<Record<string, [number, number][]>>

/** The table's key for a kind of answer to a shape of question. */
export const shapeKey = (kind: AnswerKind, shape: QuestionShape) => `${kind}/${shape}`

/**
 * How old the library answer behind an answer is (issue 28), in bands of its age in days when the
 * question is answered: an exact match a few weeks old is not worth what one two years old is.
 * A band is fitted only on protocols whose library entries carry their own dates.
 */
export const AGE_BANDS = [
  { band: '0-6m', below: 183 },
  { band: '6-12m', below: 365 },
  { band: '1-2y', below: 730 },
  { band: '2y+', below: Number.POSITIVE_INFINITY },
] as const
export type AgeBand = (typeof AGE_BANDS)[number]['band']

/** The band of an age in days. */
export const ageBandOf = (days: number): AgeBand =>
  AGE_BANDS.find(({ below }) => days < below)?.band ?? '2y+'

/** The table's key for a kind of answer resting on a library entry of an age band ('library@6-12m'). */
export const ageKey = (kind: AnswerKind, band: AgeBand) => `${kind}@${band}`

/** The table without its age bands: what an answer of unknown age is read through. */
export const withoutAgeBands = (from: CalibrationTable | null): CalibrationTable | null =>
  from && Object.fromEntries(Object.entries(from).filter(([key]) => !key.includes('@')))

/**
 * The points that apply to a kind of answer to a shape of question, resting on a library entry
 * `ageDays` old when that is known: its age band's, failing that the kind's on the shape, failing
 * that the kind's. A band speaks only for the scores it measured: a raw score below its first
 * point is read through the kind's points (fitted on many more answers), not on a line from
 * nothing.
 */
export const pointsFor = (
  from: CalibrationTable | null,
  kind: AnswerKind,
  shape: QuestionShape | null,
  ageDays?: number | null,
  raw?: number,
) => {
  const band =
    ageDays !== undefined && ageDays !== null ? from?.[ageKey(kind, ageBandOf(ageDays))] : undefined
  const measured = band?.length && (raw === undefined || raw >= (band[0]?.[0] ?? 0))
  return (
    (measured ? band : undefined) ??
    (shape ? from?.[shapeKey(kind, shape)] : undefined) ??
    from?.[kind]
  )
}

/** Where the fitted table is shipped. */
export const CALIBRATION_FILE = new URL('./calibration.json', import.meta.url)

let table: CalibrationTable | null = (
  JSON.parse(readFileSync(CALIBRATION_FILE, 'utf8')) as { kinds: CalibrationTable }
).kinds

/**
 * The most any answer of a kind is stated at (its highest point, on any shape): an answer demoted
 * to that kind after it was stated (a partly stated Yes the language model finds) shows no more.
 */
export function kindCeiling(kind: AnswerKind): number {
  const points = Object.entries(table ?? {})
    .filter(([key]) => key === kind || key.startsWith(`${kind}/`))
    .flatMap(([, list]) => list ?? [])
  return points.length ? Math.max(...points.map(([, p]) => p)) : 1
}

/** Replaces the table (null: raw scores), for fitting it. Returns the one it replaced. */
export function setCalibration(next: CalibrationTable | null): CalibrationTable | null {
  const previous = table
  table = next
  return previous
}

/**
 * A raw score read through a kind's points: piecewise linear; below the first point, on the line
 * from nothing to it (no answer measured there says more); flat above the last.
 */
export function mapThrough(points: [number, number][] | undefined, raw: number): number {
  if (!points?.length) return raw
  const [firstRaw, firstP] = points[0] as [number, number]
  if (raw <= firstRaw) return firstRaw > 0 ? (raw / firstRaw) * firstP : firstP
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i] as [number, number]
    const [x0, y0] = points[i - 1] as [number, number]
    if (raw <= x1) return x1 === x0 ? y1 : y0 + ((raw - x0) / (x1 - x0)) * (y1 - y0)
  }
  return (points[points.length - 1] as [number, number])[1]
}

/**
 * A candidate with its confidence stated as the measured accuracy of its kind, on questions of its
 * shape (or, for an answer from a library entry of known age, of its kind at that age), at its
 * score. A stale entry's ceiling is applied after this (`withinCeiling`), whatever a band says.
 */
export function calibrated(candidate: Candidate, shape: QuestionShape | null = null): Candidate {
  // a Yes or No written in a free-text cell (a form without dropdowns: 'Yes. ...') is a Yes or No
  // all the same, stated as measured
  const yesNo = candidate.choice || leadingChoice(candidate.text)
  if (!table || candidate.withheld || !yesNo) return candidate
  const kind = kindOfReason(candidate.reason)
  const points = pointsFor(table, kind, shape, candidate.ageDays, candidate.confidence)
  if (!points) return candidate
  const mapped = Math.round(mapThrough(points, candidate.confidence) * 1000) / 1000
  // an unstated qualifier is never High, whatever a fit says of its kind
  // nor is another party's sentence
  const confidence =
    kind === 'partial'
      ? Math.min(mapped, PARTLY_STATED_CAP)
      : kind === 'third_party'
        ? Math.min(mapped, THIRD_PARTY_CAP)
        : kind === 'other_product'
          ? Math.min(mapped, OTHER_PRODUCT_CAP)
          : mapped
  return { ...candidate, confidence }
}

const BAND_NAMES: Record<ConfidenceBand, string> = { high: 'High', medium: 'Medium', low: 'Low' }

/**
 * What an answer's band means, in words: its confidence is the measured accuracy of answers of
 * its kind, to questions of its shape, at its score ('High: right 96 % of the time on
 * questionnaires like this one.'). Null without a confidence.
 */
export function assuranceOf(confidence: number | null): string | null {
  if (confidence === null || confidence <= 0) return null
  const band = confidenceBand(confidence) as ConfidenceBand
  return `${BAND_NAMES[band]}: right ${Math.round(confidence * 100)} % of the time on questionnaires like this one.`
}

/**
 * Fits one kind's points from (raw score, right or wrong) pairs: isotonic regression (pooling
 * adjacent violators, and equals, so that the table stays short), then each pooled block's
 * accuracy shrunk by `prior` pseudo-answers, so that a handful of answers moves a score only a
 * little, towards `center` when given (a kind whose raw score is no probability: the kind's own
 * accuracy), else towards the block's mean raw score; kept non-decreasing.
 */
export function fitKind(
  samples: { raw: number; right: boolean }[],
  prior = 4,
  center?: number,
): [number, number][] {
  // answers with the same score first make one block
  const tied = new Map<number, { raw: number; right: number; n: number }>()
  for (const sample of samples) {
    const raw = round(sample.raw)
    const block = tied.get(raw) ?? { raw, right: 0, n: 0 }
    block.right += sample.right ? 1 : 0
    block.n += 1
    tied.set(raw, block)
  }
  const blocks: { raw: number; right: number; n: number }[] = []
  const accuracy = (block: { right: number; n: number }) => block.right / block.n
  for (const block of [...tied.values()].sort((a, b) => a.raw - b.raw)) {
    blocks.push(block)
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1] as (typeof blocks)[number]
      const before = blocks[blocks.length - 2] as (typeof blocks)[number]
      if (accuracy(before) < accuracy(last)) break
      blocks.splice(blocks.length - 2, 2, {
        raw: (before.raw * before.n + last.raw * last.n) / (before.n + last.n),
        right: before.right + last.right,
        n: before.n + last.n,
      })
    }
  }
  let floor = 0
  return blocks.map((block) => {
    const shrunk = (block.right + prior * (center ?? block.raw)) / (block.n + prior)
    floor = Math.max(floor, Math.min(0.99, Math.max(0.05, shrunk)))
    return [round(block.raw), round(floor)]
  })
}

const round = (n: number) => Math.round(n * 1000) / 1000
