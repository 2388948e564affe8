import { main } from './lib/eval-answers/cli.ts'

/**
 * `npm run eval:answers`: builds a knowledge base from files, answers a questionnaire whose own
 * answers were cleared (its analysis never reads them), and compares with the gold answers. One
 * JSON line per protocol, with the same figures for a plain TF-IDF nearest-library-question
 * baseline. `npm run eval:answers -- --kb FILE... --questionnaire FILE [--gold FILE]` runs any pair.
 * Its parts are in scripts/lib/eval-answers/: the data and gold answers (data.ts), one protocol's
 * run (run.ts), its figures (score.ts, judged.ts), the calibration fit (fit.ts, fit-table.ts),
 * answers over time (pairs.ts, over-time.ts) and the command line (cli.ts).
 */

await main(process.argv.slice(2))
process.exit(0)
