import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  AGE_BANDS,
  ANSWER_KINDS,
  ageBandOf,
  CALIBRATION_FILE,
  setCalibration,
  shapeKey,
} from '../../../server/answering/calibration.ts'
import { type Protocol, protocolFilesExist } from '../../eval-protocols.ts'
import { root } from './data.ts'
import {
  DERIVED_KINDS,
  FIT_MIN,
  fitAgeBands,
  fitTable,
  leaveOnePairOut,
  through,
} from './fit-table.ts'
import { rawPair } from './over-time.ts'
import { describePair, type Pair } from './pairs.ts'
import { runProtocol } from './run.ts'
import { asStated, eceOf, type Judged, type Sample, statedBands } from './score.ts'

/**
 * `--fit`: answers the development protocols with raw scores, fits each kind's points (and each
 * kind's per shape of question), checks each protocol on a fit that left it out (its reliability
 * table and ece, raw and fitted), and writes the fit on all of them to
 * server/answering/calibration.json, with what each band meant on the protocols left out (the
 * answer panel quotes it).
 */
export async function fitCalibration(protocols: Protocol[], pairs: Pair[]) {
  setCalibration(null)
  const samples: Sample[] = []
  for (const protocol of protocols) {
    if (!protocolFilesExist(protocol)) continue
    const { name, kb, questionnaire, gold, product } = protocol
    samples.push(
      ...(await runProtocol(name, kb, questionnaire, gold, true, undefined, product)).samples,
    )
  }
  const names = [...new Set(samples.map((s) => s.protocol))]
  const vendorOf = new Map(protocols.map((p) => [p.name, p.vendor]))
  for (const sample of samples) sample.vendor = vendorOf.get(sample.protocol)
  const vendors = [...new Set(names.map((name) => vendorOf.get(name) ?? name))]
  /** What each band meant on the vendors left out, per kind and per kind on a shape. */
  const bands: Record<string, Record<string, { answers: number; right: number }>> = {}
  const measure = (key: string, confidence: number, right: boolean) => {
    const band = confidence >= 0.8 ? 'high' : confidence >= 0.5 ? 'medium' : 'low'
    const figures = bands[key] ?? {}
    bands[key] = figures
    const figure = figures[band] ?? { answers: 0, right: 0 }
    figures[band] = figure
    figure.answers += 1
    figure.right += right ? 1 : 0
  }
  // leave one vendor out (issue 38: confidence that travels): each vendor's protocols are read
  // through a table fitted on the other vendors' answers alone, so that no figure of a vendor
  // comes from its own answers, documents or products
  const allOut: Judged[] = []
  const perProtocol: Record<string, Judged[]> = {}
  for (const vendor of vendors) {
    const own = samples.filter((s) => vendorOf.get(s.protocol) === vendor)
    const table = fitTable(samples.filter((s) => vendorOf.get(s.protocol) !== vendor))
    const fitted = through(table, own)
    fitted.forEach((judged, index) => {
      const sample = own[index] as Sample
      measure(sample.kind, judged.confidence, judged.right)
      measure(shapeKey(sample.kind, sample.shape), judged.confidence, judged.right)
      perProtocol[sample.protocol] = [...(perProtocol[sample.protocol] ?? []), judged]
    })
    allOut.push(...fitted)
    console.log(
      JSON.stringify({
        left_out_vendor: vendor,
        protocols: [...new Set(own.map((s) => s.protocol))],
        answers: own.length,
        ece_raw: eceOf(own.map(asStated)),
        ece_fitted: eceOf(fitted),
        bands_stated: statedBands(fitted),
      }),
    )
  }
  // per protocol, each band's accuracy beside its stated confidence, out of its vendor's fit
  for (const name of names)
    console.log(
      JSON.stringify({
        protocol: name,
        vendor: vendorOf.get(name),
        out_of_vendor_fit: statedBands(perProtocol[name] ?? []),
      }),
    )
  // and, as before, each protocol read through a fit that left only it out
  const protocolOut: Judged[] = []
  for (const held of names)
    protocolOut.push(
      ...through(
        fitTable(samples.filter((s) => s.protocol !== held)),
        samples.filter((s) => s.protocol === held),
      ),
    )
  console.log(
    JSON.stringify({
      leave_one_vendor_out: {
        vendors,
        answers: allOut.length,
        judged_by_hand: samples.filter((s) => s.judged).length,
        ece: eceOf(allOut),
        bands_stated: statedBands(allOut),
      },
      leave_one_protocol_out: { answers: protocolOut.length, ece: eceOf(protocolOut) },
    }),
  )
  const undated = fitTable(samples)
  // the age bands, on the pairs that date their library (h): answered with raw scores and no
  // stale entry's ceiling, each checked on a fit that left its pair out
  const dated: Sample[] = []
  for (const pair of pairs) dated.push(...(await rawPair(pair)))
  const outOfPair = leaveOnePairOut(dated, undated)
  console.log(JSON.stringify({ leave_one_pair_out: outOfPair }))
  const table = { ...undated, ...fitAgeBands(dated) }
  const counts = Object.fromEntries(
    ANSWER_KINDS.map((kind) => [kind, samples.filter((s) => s.kind === kind).length]),
  )
  // the derived kinds with too few answers of their own, read through all derived answers pooled
  const derivedCount = samples.filter((s) => DERIVED_KINDS.has(s.kind)).length
  const pooled = Object.fromEntries(
    ANSWER_KINDS.filter(
      (kind) => DERIVED_KINDS.has(kind) && (counts[kind] ?? 0) < FIT_MIN && table[kind],
    ).map((kind) => [kind, { from: 'derived', answers: derivedCount }]),
  )
  const ageBands = {
    pairs: pairs.map(describePair),
    answers: Object.fromEntries(
      AGE_BANDS.map(({ band }) => [
        band,
        dated.filter((s) => s.ageDays !== undefined && ageBandOf(s.ageDays) === band).length,
      ]),
    ),
    in_sample: outOfPair.in_sample,
    leave_one_pair_out: outOfPair.pooled,
  }
  writeFileSync(
    CALIBRATION_FILE,
    `${JSON.stringify({ fitted: new Date().toISOString().slice(0, 10), protocols: names, vendors, answers: counts, pooled, kinds: table, left_out_bands: bands, age_bands: ageBands }, null, 2)}\n`,
  )
  // in the house's format (the lint step reads it)
  execFileSync('npx', ['biome', 'format', '--write', fileURLToPath(CALIBRATION_FILE)], {
    cwd: root,
    stdio: 'ignore',
  })
  console.log(JSON.stringify({ calibration: 'written', answers: counts, kinds: table }))
}
