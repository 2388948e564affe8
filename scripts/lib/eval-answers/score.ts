import { AGE_BANDS, type AnswerKind, ageBandOf } from '../../../server/answering/calibration.ts'
import type { QuestionShape } from '../../../server/answering/parts.ts'
import type { Gold } from './data.ts'

/**
 * The figures `npm run eval:answers` prints: a protocol's answers scored against its gold (or
 * hand-judged) answers, its reliability table, each band's accuracy beside the confidence it
 * stated, and the expected calibration error.
 */

export const round = (n: number) => Math.round(n * 1000) / 1000

const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []
function tokenF1(a: string, b: string) {
  const x = tokens(a)
  const y = tokens(b)
  if (!x.length || !y.length) return 0
  const counts = new Map<string, number>()
  for (const t of y) counts.set(t, (counts.get(t) ?? 0) + 1)
  let common = 0
  for (const t of x) {
    const n = counts.get(t) ?? 0
    if (n > 0) {
      common += 1
      counts.set(t, n - 1)
    }
  }
  if (!common) return 0
  const precision = common / x.length
  const recall = common / y.length
  return (2 * precision * recall) / (precision + recall)
}

export interface Prediction {
  key: string
  /** The kind of answer (library, transferred, stated...), for fitting calibration. */
  kind: AnswerKind
  /** The shape of the question (single practice, with qualifiers, ...), for the same. */
  shape: QuestionShape
  choice: 'yes' | 'no' | 'na' | null
  text: string
  confidence: number
  answered: boolean
  /** Whether the gold row's own knowledge entry was among the top five retrieved. */
  hit5: boolean | null
  /** On a protocol with dated library entries (h): the age of the entry the answer rests on. */
  ageDays?: number
}

/** An answered Yes/No question: its stated confidence, and whether it was right. */
export interface Judged {
  confidence: number
  right: boolean
  /** The age in days of the library entry it rests on, where the protocol dates its entries. */
  ageDays?: number
}

/**
 * Per age band of the library entry an answer rests on (calibration.ts's bands; 'undated' for
 * answers resting on none): how many answers, their accuracy and their mean stated confidence.
 */
export function byAgeBand(judged: Judged[]) {
  const bands = [...AGE_BANDS.map(({ band }) => band), 'undated'] as const
  const figures: Record<string, { answered: number; accuracy: number; mean_confidence: number }> =
    {}
  for (const band of bands) {
    const inBand = judged.filter((p) =>
      band === 'undated'
        ? p.ageDays === undefined
        : p.ageDays !== undefined && ageBandOf(p.ageDays) === band,
    )
    if (!inBand.length) continue
    figures[band] = {
      answered: inBand.length,
      accuracy: round(inBand.filter((p) => p.right).length / inBand.length),
      mean_confidence: round(inBand.reduce((sum, p) => sum + p.confidence, 0) / inBand.length),
    }
  }
  return figures
}

/** The reliability table: per band, how many answers, their mean stated confidence, their accuracy. */
function reliability(judged: Judged[]) {
  const bands = { high: [0.8, 1.01], medium: [0.5, 0.8], low: [0, 0.5] } as const
  return Object.fromEntries(
    Object.entries(bands).map(([band, [low, high]]) => {
      const inBand = judged.filter((p) => p.confidence >= low && p.confidence < high)
      return [
        band,
        {
          answered: inBand.length,
          accuracy: inBand.length
            ? round(inBand.filter((p) => p.right).length / inBand.length)
            : null,
          mean_confidence: inBand.length
            ? round(inBand.reduce((sum, p) => sum + p.confidence, 0) / inBand.length)
            : null,
        },
      ]
    }),
  )
}

/** A sample as the product stated it: its confidence (raw when fitting), and whether it was right. */
export const asStated = (sample: { raw: number; right: boolean }): Judged => ({
  confidence: sample.raw,
  right: sample.right,
})

/** The most a band's accuracy may differ from the confidence it states (issue 38). */
const BAND_TOLERANCE = 0.1

/**
 * Per band (High, Medium, Low), how many answers, the mean confidence stated, the accuracy
 * measured (gold, or judged by hand: "states" is right), and whether they are within
 * BAND_TOLERANCE of each other: a band must neither overstate nor understate.
 */
export function statedBands(judged: Judged[]) {
  return Object.fromEntries(
    Object.entries(reliability(judged))
      .filter(([, figures]) => figures.answered > 0)
      .map(([band, figures]) => {
        const gap = round((figures.accuracy ?? 0) - (figures.mean_confidence ?? 0))
        return [
          band,
          {
            answers: figures.answered,
            stated: figures.mean_confidence,
            accuracy: figures.accuracy,
            accuracy_minus_stated: gap,
            within_0_10: Math.abs(gap) <= BAND_TOLERANCE + 1e-9,
          },
        ]
      }),
  )
}

/**
 * Expected calibration error: ten equal bins of stated confidence, each |accuracy - confidence|
 * weighted by its share of the answers.
 */
export function eceOf(judged: Judged[]) {
  let ece = 0
  for (let bin = 0; bin < 10; bin++) {
    const inBin = judged.filter(
      (p) => Math.min(9, Math.floor(p.confidence * 10)) === bin && p.confidence > 0,
    )
    if (!inBin.length) continue
    const accuracy = inBin.filter((p) => p.right).length / inBin.length
    const confidence = inBin.reduce((sum, p) => sum + p.confidence, 0) / inBin.length
    ece += (inBin.length / judged.length) * Math.abs(accuracy - confidence)
  }
  return judged.length ? round(ece) : null
}

/** A protocol's figures: its predictions against the gold answers, `ms` the time they took. */
export function score(predictions: Prediction[], gold: Map<string, Gold>, ms: number) {
  const yesNo = predictions.filter((p) => gold.get(p.key)?.choice)
  const answered = yesNo.filter((p) => p.answered && p.choice)
  const correct = (p: Prediction) => p.choice === gold.get(p.key)?.choice
  const judged: Judged[] = answered.map((p) => ({
    confidence: p.confidence,
    right: correct(p),
    ...(p.ageDays !== undefined ? { ageDays: p.ageDays } : {}),
  }))
  const bandFigures = reliability(judged)
  const ece = eceOf(judged) ?? 0
  const withText = predictions.filter((p) => p.answered && p.text && gold.get(p.key)?.text)
  const hits = predictions.filter((p) => p.hit5 !== null)
  return {
    questions: predictions.length,
    with_gold: predictions.filter((p) => gold.has(p.key)).length,
    with_gold_yes_no: yesNo.length,
    answered: predictions.filter((p) => p.answered).length,
    coverage: yesNo.length ? round(answered.length / yesNo.length) : null,
    bands: bandFigures,
    ece: answered.length ? round(ece) : null,
    choice_accuracy: answered.length
      ? round(answered.filter(correct).length / answered.length)
      : null,
    false_yes_rate: answered.length
      ? round(
          answered.filter((p) => p.choice === 'yes' && gold.get(p.key)?.choice !== 'yes').length /
            answered.length,
        )
      : null,
    token_f1: withText.length
      ? round(
          withText.reduce((sum, p) => sum + tokenF1(p.text, gold.get(p.key)?.text ?? ''), 0) /
            withText.length,
        )
      : null,
    recall_at_5: hits.length ? round(hits.filter((p) => p.hit5).length / hits.length) : null,
    ms_per_question: round(ms / Math.max(1, predictions.length)),
    ...(predictions.some((p) => p.ageDays !== undefined) ? { by_age_band: byAgeBand(judged) } : {}),
  }
}

/** A measured Yes/No answer (against gold, or judged by hand), for fitting calibration. */
export type Sample = {
  protocol: string
  /** Whose answers (the protocol's vendor), for the High guard and leave-one-vendor-out. */
  vendor?: string
  kind: AnswerKind
  shape: QuestionShape
  raw: number
  right: boolean
  /** Judged by hand on a protocol across frameworks (e, f, g) rather than against gold answers. */
  judged?: true
  /** Judged by hand: its source states everything asked, every qualifier and the scope too. */
  whole?: boolean
  /** The age of the library entry it rests on, on a protocol that dates its entries (h). */
  ageDays?: number
  /** The most it may show whatever calibration says (a stale or contested entry's answer). */
  ceiling?: number
}

/** A blank form's figures: answered of all its questions, and the ece of its judged answers. */
export const judgedScore = (predictions: Prediction[], samples: Sample[]) => ({
  coverage: predictions.length
    ? round(predictions.filter((p) => p.answered).length / predictions.length)
    : null,
  ece: eceOf(samples.map(asStated)),
})
