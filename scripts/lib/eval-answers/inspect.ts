import { writeFileSync } from 'node:fs'
import type { loadLibrary } from '../../../server/modules/answering/store.ts'
import type { QuestionnaireService } from '../../../server/modules/questionnaires/service.ts'
import { type Gold, keyOf } from './data.ts'
import type { Prediction } from './score.ts'

/**
 * What a protocol shows beside its figures, on request: every answer written to a file
 * (EVAL_DUMP) and the questions it got wrong printed on stderr (EVAL_DEBUG).
 */

/** A questionnaire's rows as answered, and the library they were answered from. */
export type Rows = Awaited<ReturnType<QuestionnaireService['questionRows']>>
export type Library = Awaited<ReturnType<typeof loadLibrary>>

/**
 * EVAL_DUMP=FILE writes every row (answer, reason, citations) for inspection and hand-labelling,
 * and the library's entries to FILE.library.
 */
export function dumpRows(
  file: string,
  name: string,
  rows: Rows,
  predictions: Prediction[],
  library: Library,
) {
  writeFileSync(
    file,
    rows
      .map((row, index) =>
        JSON.stringify({
          protocol: name,
          ref: row.ref,
          kind: predictions[index]?.kind,
          shape: predictions[index]?.shape,
          question: row.text,
          status: row.answer.status,
          choice: row.answer.choice,
          text: row.answer.text,
          confidence: row.answer.confidence,
          note: row.answer.note,
          citations: row.answer.citations.map((c) => ({
            kind: c.kind,
            title: c.title,
            snippet: c.snippet,
          })),
        }),
      )
      .join('\n'),
  )
  writeFileSync(`${file}.library`, library.entries.map((entry) => JSON.stringify(entry)).join('\n'))
}

/**
 * EVAL_DEBUG=`mode` prints on stderr each question with a gold choice that was answered wrong or
 * not at all, beside the library's nearest entry; `all` also the right ones below High, with their
 * citations.
 */
export function debugRows(
  mode: string,
  rows: Rows,
  gold: Map<string, Gold>,
  predictions: Prediction[],
  library: Library,
) {
  for (const row of rows) {
    const g = gold.get(keyOf(row.ref, row.text))
    const p = predictions.find((x) => x.key === keyOf(row.ref, row.text))
    if (
      !g?.choice ||
      (p?.answered && p.choice === g.choice && (p.confidence >= 0.8 || mode !== 'all'))
    )
      continue
    const top = library.match(row.text, 1)[0]
    console.error(
      JSON.stringify({
        ref: row.ref,
        q: row.text.slice(0, 90),
        gold: g.choice,
        got: p?.choice,
        text: row.answer.text.slice(0, 60),
        status: row.answer.status,
        confidence: p?.confidence,
        cites: mode === 'all' ? row.answer.citations.map((c) => c.snippet.slice(0, 70)) : undefined,
        top: top
          ? [top.score.toFixed(2), top.entry.question.slice(0, 90), top.entry.answer.slice(0, 20)]
          : null,
      }),
    )
  }
}
