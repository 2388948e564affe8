import {
  AGE_BANDS,
  ANSWER_KINDS,
  type AnswerKind,
  ageBandOf,
  ageKey,
  type CalibrationTable,
  fitKind,
  mapThrough,
  pointsFor,
  shapeKey,
} from '../../../server/answering/calibration.ts'
import type { QuestionShape } from '../../../server/answering/parts.ts'
import { byAgeBand, eceOf, type Judged, round, type Sample } from './score.ts'

/**
 * Calibration fitted on measured answers: each kind's points (and each kind's on a shape of
 * question, and per age band of the library entry), held below High where too few vendors vouch
 * for it, and read back through a table to see what a fit states.
 */

/**
 * The development protocols calibration is fitted on: those with gold answers, and those judged by
 * hand across frameworks and vendors (e, f, g, i, j).
 */
export const FIT_ON = ['a', 'b', 'c', 'd', 'd-catalog', 'd-studio', 'e', 'f', 'g', 'i', 'j', 's']
/** Kinds (and kinds on one shape of question) with fewer answers than this have no points. */
export const FIT_MIN = 8

/**
 * The kinds that rest on something other than the vendor's own answer to the question: a
 * document's sentences, or its answer to another question (transferred).
 */
export const DERIVED_KINDS = new Set<AnswerKind>([
  'transferred',
  'stated',
  'denied',
  'partial',
  'third_party',
])

/**
 * The floor of the High band, and how often a High answer judged across frameworks must be right:
 * a tenth above the floor (0.95 held library answers right 0.93 as judged and 1.0 by the vendor's
 * own answers at Medium, understated by 0.14 to 0.21 out of fit)
 */
export const HIGH = 0.8
const HIGH_PRECISION = 0.9

/**
 * High only where the measured answers of a kind at or above a point's score were right as often
 * as High promises, on more than one vendor: a point of a kind's table that reaches High is held
 * just below it when fewer than eight answers of that kind reach its score, when they come from
 * one vendor alone (one vendor's many answers cannot vouch for another's), or when fewer than 0.9
 * of them are right (the floor and a tenth); where it stands, it shows no more than the share
 * right there. A kind can be right 0.95 of the time on the vendor's own documents and 0.35 on
 * another vendor's: pooled, it would be shown High on both (issue 27: no High answer its source
 * does not state; issue 38: left out of the fit, Amazon Web Services' document answers went High
 * at 0.93, right 0.39, on the strength of another vendor's answers).
 */
function heldBelowHigh(points: [number, number][], measured: Sample[]): [number, number][] {
  return points.map(([raw, p]) => {
    if (p < HIGH) return [raw, p]
    const above = measured.filter((s) => s.raw >= raw - 0.005)
    const vendors = new Set(above.map((s) => s.vendor ?? s.protocol))
    if (above.length < FIT_MIN || vendors.size < 2) return [raw, HIGH - 0.01]
    // High asks more of a judged answer: its source states everything asked (issue 27)
    const precision = above.filter((s) => s.whole ?? s.right).length / above.length
    return precision >= HIGH_PRECISION ? [raw, Math.min(p, round(precision))] : [raw, HIGH - 0.01]
  })
}

const SHAPES: QuestionShape[] = ['single', 'qualified', 'governance', 'compound', 'none']

/** Each kind's points, and each kind's on each shape of question that has answers enough. */
export function fitTable(samples: Sample[]): CalibrationTable {
  const table: CalibrationTable = {}
  for (const kind of ANSWER_KINDS) {
    const own = samples.filter((s) => s.kind === kind)
    // a derived kind with too few answers of its own (a document's denial) is read through the
    // points of all derived answers, pooled: its raw score is no probability to fall back on
    if (own.length < FIT_MIN && DERIVED_KINDS.has(kind)) {
      const derived = samples.filter((s) => DERIVED_KINDS.has(s.kind))
      if (derived.length >= FIT_MIN)
        table[kind] = heldBelowHigh(
          fitKind(derived, 4, derived.filter((s) => s.right).length / derived.length),
          derived,
        )
      continue
    }
    if (own.length < FIT_MIN) continue
    // a derived kind's raw score (a document sentence's, a transferred answer's) is no
    // probability: a few answers at a score are shrunk towards the kind's own accuracy
    const center = DERIVED_KINDS.has(kind)
      ? own.filter((s) => s.right).length / own.length
      : undefined
    table[kind] = heldBelowHigh(fitKind(own, 4, center), own)
    for (const shape of SHAPES) {
      const shaped = own.filter((s) => s.shape === shape)
      if (shaped.length >= FIT_MIN)
        table[shapeKey(kind, shape)] = heldBelowHigh(fitKind(shaped, 4, center), own)
    }
  }
  return table
}

/** Samples read through a table: the confidence each would state, capped by its ceiling. */
export const through = (table: CalibrationTable, samples: Sample[]): Judged[] =>
  samples.map((s) => ({
    confidence: Math.min(
      mapThrough(pointsFor(table, s.kind, s.shape, s.ageDays, s.raw), s.raw),
      s.ceiling ?? 1,
    ),
    right: s.right,
    ...(s.ageDays !== undefined ? { ageDays: s.ageDays } : {}),
  }))

/**
 * Each kind's points per age band of the library entry it rests on ('library@2y+'), from the
 * answers of protocols that date their entries (raw scores, before any stale entry's ceiling).
 */
export function fitAgeBands(samples: Sample[]): CalibrationTable {
  const table: CalibrationTable = {}
  for (const kind of ANSWER_KINDS)
    for (const { band } of AGE_BANDS) {
      const own = samples.filter(
        (s) => s.kind === kind && s.ageDays !== undefined && ageBandOf(s.ageDays) === band,
      )
      if (own.length >= FIT_MIN) table[ageKey(kind, band)] = fitKind(own)
    }
  return table
}

/**
 * Leave one pair out: each dated pair read through the age bands fitted on the other pairs (and
 * the undated keys as shipped), so that no band figure of a pair comes from its own answers.
 * With one pair there is nothing to leave it out of: its figures are in-sample, and say so.
 */
export function leaveOnePairOut(samples: Sample[], base: CalibrationTable) {
  const names = [...new Set(samples.map((s) => s.protocol))]
  const pooled: Judged[] = []
  // the same, were a stale entry's answer not held below High: what the ceiling costs
  const uncapped: Judged[] = []
  const pairs = names.map((held) => {
    const others = samples.filter((s) => s.protocol !== held)
    const table = { ...base, ...fitAgeBands(names.length > 1 ? others : samples) }
    const own = samples.filter((s) => s.protocol === held)
    const judged = through(table, own)
    pooled.push(...judged)
    uncapped.push(
      ...through(
        table,
        own.map(({ ceiling: _, ...s }) => s),
      ),
    )
    return {
      left_out: held,
      bands_fitted_on: names.length > 1 ? names.filter((name) => name !== held) : [held],
      band_keys: Object.keys(table).filter((key) => key.includes('@')),
      answers: judged.length,
      ece: eceOf(judged),
      by_age_band: byAgeBand(judged),
    }
  })
  return {
    in_sample: names.length < 2,
    pairs,
    pooled: { answers: pooled.length, ece: eceOf(pooled), by_age_band: byAgeBand(pooled) },
    pooled_without_ceiling: { ece: eceOf(uncapped), by_age_band: byAgeBand(uncapped) },
  }
}
