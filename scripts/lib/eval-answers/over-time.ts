import { MAX_REVIEW_CYCLE_DAYS } from '../../../contract/freshness.ts'
import { setCalibration, withoutAgeBands } from '../../../server/answering/calibration.ts'
import { HIGH, leaveOnePairOut } from './fit-table.ts'
import type { Dating } from './library.ts'
import { describePair, type Pair } from './pairs.ts'
import { runProtocol } from './run.ts'
import { byAgeBand, eceOf, type Judged, round, type Sample } from './score.ts'

/**
 * Protocol h, answers over time: each dated pair answered with its library as old as it was, and
 * the figures per age band of the entries its answers rest on.
 */

/** A pair answered with raw scores and a cycle long enough that no entry is capped, for fitting. */
export async function rawPair(pair: Pair): Promise<Sample[]> {
  const table = setCalibration(null)
  try {
    const { samples } = await runProtocol(
      pair.name,
      [pair.older.file],
      pair.newer.file,
      undefined,
      true,
      {
        ageDays: pair.ageDays,
        cycleDays: MAX_REVIEW_CYCLE_DAYS,
        bands: false,
      },
    )
    return samples
  } finally {
    setCalibration(table)
  }
}

/**
 * `--protocol h`: each pair answered as the product would (the shipped table, age bands included,
 * a stale entry never High), and again without ages (its library fresh, no bands) for coverage;
 * then each pair through the age bands fitted on the other pairs (leave one pair out), the figures
 * the goals are read on.
 */
export async function answersOverTime(pairs: Pair[]) {
  if (!pairs.length) {
    console.log(JSON.stringify({ protocol: 'h', skipped: 'no dated pairs of one product found' }))
    return
  }
  const shipped = setCalibration(null)
  setCalibration(shipped)
  const bandKeys = Object.keys(shipped ?? {}).filter((key) => key.includes('@'))
  /** Every pair's answers as the product stated them, and without ages. */
  const asAnswered: Judged[] = []
  const counts = { yesNo: 0, answered: 0, answeredWithoutAges: 0 }
  const perPair = []
  const raw: Sample[] = []
  for (const pair of pairs) {
    const run = (quiet: boolean, dating: Dating) =>
      runProtocol(pair.name, [pair.older.file], pair.newer.file, undefined, quiet, dating)
    const aged = await run(true, { ageDays: pair.ageDays, bands: true })
    const plain = await run(true, { ageDays: 0, bands: false })
    raw.push(...(await rawPair(pair)))
    asAnswered.push(
      ...aged.samples.map((s) => ({ confidence: s.raw, right: s.right, ageDays: s.ageDays })),
    )
    const { figures } = aged
    counts.yesNo += figures.with_gold_yes_no
    counts.answered += aged.samples.length
    counts.answeredWithoutAges += plain.samples.length
    perPair.push({
      ...describePair(pair),
      questions_yes_no: figures.with_gold_yes_no,
      coverage: figures.coverage,
      coverage_without_ages: plain.figures.coverage,
      high: figures.bands.high,
      ece: figures.ece,
      choice_accuracy: figures.choice_accuracy,
      by_age_band: figures.by_age_band,
    })
  }
  const share = (n: number) => (counts.yesNo ? round(n / counts.yesNo) : null)
  const high = asAnswered.filter((p) => p.confidence >= HIGH)
  const outOfPair = leaveOnePairOut(raw, withoutAgeBands(shipped) ?? {})
  const gaps = Object.entries(outOfPair.pooled.by_age_band).map(([band, f]) => ({
    band,
    confidence_minus_accuracy: round(f.mean_confidence - f.accuracy),
    within_0_03: Math.abs(f.mean_confidence - f.accuracy) <= 0.03 + 1e-9,
  }))
  console.log(
    JSON.stringify({
      protocol: 'h',
      pairs: perPair,
      // as the product answers (the shipped table; its age bands, if any, were fitted on these
      // same pairs: in-sample)
      answered: {
        band_keys: bandKeys,
        // the shipped bands are fitted on these pairs (`--fit`): their figures here are in-sample
        bands_in_sample: bandKeys.length > 0,
        answers: asAnswered.length,
        coverage: share(counts.answered),
        coverage_without_ages: share(counts.answeredWithoutAges),
        high: {
          answered: high.length,
          accuracy: high.length ? round(high.filter((p) => p.right).length / high.length) : null,
        },
        ece: eceOf(asAnswered),
        by_age_band: byAgeBand(asAnswered),
      },
      leave_one_pair_out: outOfPair,
      goals: {
        coverage_not_fallen: counts.answered >= counts.answeredWithoutAges,
        // on answers whose pair the age bands were not fitted on
        ece_out_of_pair: outOfPair.pooled.ece,
        ece_at_most_0_05: outOfPair.pooled.ece !== null && outOfPair.pooled.ece <= 0.05,
        bands_out_of_pair: gaps,
      },
    }),
  )
}
