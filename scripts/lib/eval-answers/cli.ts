import { existsSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_LLM_SETTINGS } from '../../../server/answering/llm.ts'
import { parseConfig } from '../../../server/config.ts'
import type { LlmOptions } from '../../../server/jobs/registry.ts'
import { developmentProtocols, protocolFilesExist } from '../../eval-protocols.ts'
import { shared } from './data.ts'
import { fitCalibration } from './fit.ts'
import { FIT_ON } from './fit-table.ts'
import { answersOverTime } from './over-time.ts'
import { datedPairs } from './pairs.ts'
import { answerWithLlm, runProtocol } from './run.ts'

/**
 * `--llm`: every protocol answered with the language model the server would use (LLM_BASE_URL,
 * LLM_MODEL, LLM_API_KEY), through the same engine and usage ledger; without a daily budget, so
 * that a long protocol is measured to its end.
 */
function configuredLlm(): LlmOptions {
  let config: ReturnType<typeof parseConfig>
  try {
    config = parseConfig()
  } catch (error) {
    console.log(JSON.stringify({ eval: 'answers', llm: (error as Error).message }))
    process.exit(2)
  }
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
    console.log(
      JSON.stringify({
        eval: 'answers',
        llm: 'not configured: set LLM_BASE_URL and LLM_MODEL',
      }),
    )
    process.exit(2)
  }
  console.log(
    JSON.stringify({ eval: 'answers', llm: `${config.LLM_MODEL} at ${config.LLM_BASE_URL}` }),
  )
  return {
    settings: {
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
      ...DEFAULT_LLM_SETTINGS,
      dailyTokens: Number.MAX_SAFE_INTEGER,
    },
  }
}

/**
 * The command line of `npm run eval:answers` (its flags in scripts/eval-answers.ts): a custom pair
 * (`--kb`, `--questionnaire`), the calibration fit (`--fit`), or the development protocols.
 */
export async function main(args: string[]) {
  /** The values after a flag, up to the next flag. */
  const option = (name: string) => {
    const at = args.indexOf(name)
    if (at < 0) return []
    const values: string[] = []
    for (let i = at + 1; i < args.length && !args[i]?.startsWith('--'); i++)
      values.push(args[i] as string)
    return values
  }

  answerWithLlm(args.includes('--llm') ? configuredLlm() : undefined)

  if (args.includes('--questionnaire')) {
    const questionnaire = option('--questionnaire')[0]
    const kb = option('--kb')
    if (!questionnaire || !kb.length) {
      console.error(
        'usage: npm run eval:answers -- --kb FILE... --questionnaire FILE [--gold FILE] [--today YYYY-MM-DD] [--product NAME]',
      )
      process.exit(2)
    }
    const today = option('--today')[0]
    if (today && !/^\d{4}-\d{2}-\d{2}$/.test(today)) {
      console.error('usage: --today YYYY-MM-DD')
      process.exit(2)
    }
    await runProtocol(
      'custom',
      kb.map((f) => path.resolve(f)),
      path.resolve(questionnaire),
      option('--gold')[0],
      false,
      // issue 38: a custom run honours --today, its library aged by each file's own date
      today ? { answeredOn: today, bands: true } : undefined,
      option('--product')[0],
    )
  } else if (!existsSync(shared)) {
    console.log(JSON.stringify({ eval: 'answers', skipped: `${shared} not found` }))
  } else {
    const only = option('--protocol')[0]
    const today = option('--today')[0]
    const byProperties = option('--dated-by')[0] === 'properties'
    if (today && !/^\d{4}-\d{2}-\d{2}$/.test(today)) {
      console.error('usage: --today YYYY-MM-DD')
      process.exit(2)
    }
    const protocols = developmentProtocols(shared)
    if (args.includes('--fit')) {
      await fitCalibration(
        protocols.filter(({ name }) => FIT_ON.includes(name)),
        datedPairs(today, byProperties),
      )
      process.exit(0)
    }
    for (const protocol of protocols) {
      if (only && only !== protocol.name) continue
      if (!protocolFilesExist(protocol)) {
        console.log(JSON.stringify({ protocol: protocol.name, skipped: 'files not found' }))
        continue
      }
      const { name, kb, questionnaire, gold, product } = protocol
      await runProtocol(name, kb, questionnaire, gold, false, undefined, product)
    }
    // h, answers over time: the same product's questionnaires of different dates
    if (!only || only === 'h') await answersOverTime(datedPairs(today, byProperties))
  }
}
