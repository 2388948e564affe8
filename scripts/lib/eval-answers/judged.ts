import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { root } from './data.ts'
import { round } from './score.ts'

/** How much of what its question asks an answer's cited source states, as judged by hand. */
type Label = 'states' | 'half' | 'none'

/**
 * Protocols without gold answers (e, f, g) are judged by hand (tests/fixtures/eval/judged-P.json,
 * its rule at its top): does each answer's cited source state what the question asks (states,
 * half, none)? An answer counts as judged while it gives the same choice citing the same first
 * sentence; the figures are over the judged ones, overall and per confidence band, with how many
 * answers are new since the judging (unjudged).
 */
export function judgedFigures(
  protocol: string,
  rows: {
    id: number
    ref: string | null
    answer: {
      status: string
      choice: string | null
      confidence: number | null
      citations: { snippet: string }[]
    }
  }[],
) {
  const file = path.join(root, `tests/fixtures/eval/judged-${protocol}.json`)
  if (!existsSync(file)) return null
  const { judged } = JSON.parse(readFileSync(file, 'utf8')) as {
    judged: { ref: string; choice: string | null; cited_sha1: string; label: Label }[]
  }
  // an answer is judged by ref, choice and first cited sentence (a ref may be judged more than
  // once, as the engine's answer to it changed)
  const keyOf = (ref: string | null, choice: string | null, cited: string) =>
    `${ref}\u001f${choice}\u001f${cited}`
  const byKey = new Map(
    judged.map((entry) => [keyOf(entry.ref, entry.choice, entry.cited_sha1), entry]),
  )
  const labels = new Map<number, Label>()
  const bands: Record<string, Record<Label | 'answers', number>> = {}
  let unjudged = 0
  for (const row of rows) {
    if (row.answer.status !== 'generated') continue
    const cited = createHash('sha1')
      .update(row.answer.citations[0]?.snippet ?? '')
      .digest('hex')
    const entry = byKey.get(keyOf(row.ref, row.answer.choice, cited))
    if (!entry) {
      unjudged += 1
      continue
    }
    labels.set(row.id, entry.label)
    const confidence = row.answer.confidence ?? 0
    const band = confidence >= 0.8 ? 'high' : confidence >= 0.5 ? 'medium' : 'low'
    const figures = bands[band] ?? { answers: 0, states: 0, half: 0, none: 0 }
    bands[band] = figures
    figures.answers += 1
    figures[entry.label] += 1
  }
  const total = (label: Label | 'answers') =>
    Object.values(bands).reduce((sum, figures) => sum + figures[label], 0)
  const share = (n: number, of: number) => (of ? round(n / of) : null)
  return {
    labels,
    figures: {
      judged: total('answers'),
      unjudged,
      states: share(total('states'), total('answers')),
      half: share(total('half'), total('answers')),
      none: share(total('none'), total('answers')),
      // of the High answers, the share whose source states everything asked
      high_precision: share(bands.high?.states ?? 0, bands.high?.answers ?? 0),
      by_band: Object.fromEntries(
        Object.entries(bands).map(([band, figures]) => [
          band,
          {
            answers: figures.answers,
            states: share(figures.states, figures.answers),
            half: share(figures.half, figures.answers),
            none: share(figures.none, figures.answers),
          },
        ]),
      ),
    },
  }
}
