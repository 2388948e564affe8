import { holdsAnswer } from '../../../contract/answers.ts'
import {
  ANSWER_STATUS_LABELS,
  type ExportFormat,
  QUESTIONNAIRE_TEXTS,
  type Questionnaire,
  type QuestionRow,
} from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { basicFile, fillFile, type ParseLimits } from '../../ingest/index.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'
import type { DocxWrite } from '../../workbooks/docx.ts'
import type { FillJob } from '../../workbooks/fill.ts'
import type { CellWrite } from '../../workbooks/patch-xlsx.ts'
import type { QuestionnaireService } from './service.ts'

/**
 * The building of a filled file: answers written into the customer's own file (XLSX cells patched
 * in the sheet XML, DOCX table cells, CSV cells), or a clean basic table. The files themselves are
 * built in a worker process with a deadline and memory caps (server/workbooks/fill.ts): this only
 * decides what goes where. Only the export job calls it (export-runs.ts, issue 37).
 */

const MIMES: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

const isAnswered = (row: QuestionRow) => holdsAnswer(row.answer)

const same = (a: string, b: string) => {
  const norm = (value: string) => {
    const text = value.trim().toLowerCase().replace(/\s+/g, ' ')
    return /^(n\/?a|not applicable)$/.test(text) ? 'na' : text
  }
  return norm(a) === norm(b)
}

/** What goes in each place of the original file for one answered question. */
export function cellWrites(
  target: Extract<AnswerTarget, { type: 'cell' }>,
  row: QuestionRow,
): { column: number; value: string }[] {
  const { text, choice, comment } = row.answer
  const writes: { column: number; value: string }[] = []
  const hasChoiceCell = Boolean(row.vocabulary?.length || target.marks?.length)
  if (target.marks?.length) {
    const mark = choice ? target.marks.find((m) => same(m.label, choice)) : undefined
    if (mark) writes.push({ column: mark.column, value: 'X' })
  } else if (target.column !== null) {
    if (hasChoiceCell) {
      if (choice) writes.push({ column: target.column, value: choice })
    } else {
      const value = text.trim() || choice || ''
      if (value) writes.push({ column: target.column, value })
    }
  }
  if (target.comment !== null && target.comment !== target.column) {
    // the narrative goes beside a dropdown answer; a comment goes beside a text answer
    const note =
      hasChoiceCell || target.column === null ? [text.trim(), comment.trim()] : [comment.trim()]
    const value = note.filter(Boolean).join('\n\n')
    if (value) writes.push({ column: target.comment, value })
  }
  return writes
}

/** A file built, not yet stored. */
export interface BuiltFile {
  name: string
  format: ExportFormat
  mime: string
  data: Buffer
  /** How many answers it carries. */
  written: number
  /** The questionnaire's revision it was written from. */
  revision: number
}

/** Told as the building moves on: a percentage and what it does now. */
export type ExportStep = (progress: number, label: string) => Promise<void>

/** What a run says it does, from its request to its file. */
export const EXPORT_STEPS = {
  queued: 'Waiting to start',
  reading: 'Reading the answers',
  writing: 'Writing the file',
  saving: 'Saving the file',
} as const

export function createFileBuilder(deps: {
  database: Database
  questionnaires: QuestionnaireService
  parseLimits?: Partial<ParseLimits>
}) {
  const { pool } = deps.database

  async function targets(orgId: number, questionnaireId: number) {
    const { rows } = await pool.query<{ id: string; target: AnswerTarget | null }>(
      `select id, target from questionnaire_questions
        where org_id = $1 and questionnaire_id = $2 and deleted_at is null`,
      [orgId, questionnaireId],
    )
    return new Map(rows.map((row) => [Number(row.id), row.target]))
  }

  const stem = (name: string) => name.replace(/\.[^.]+$/, '') || 'questionnaire'

  /**
   * The questionnaire, when it can be exported in this format now: another organisation's (or a
   * deleted one) is a 404, one still being read a 409, a PDF filled in place a 400.
   */
  async function exportable(orgId: number, questionnaireId: number, format: ExportFormat) {
    const questionnaire = await deps.questionnaires.get(orgId, questionnaireId)
    if (questionnaire.status === 'queued' || questionnaire.status === 'analyzing')
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
    if (format === 'original' && !questionnaire.can_export_original)
      throw apiError(400, QUESTIONNAIRE_TEXTS.noExportOriginal, { code: 'validation_error' })
    return questionnaire
  }

  /** The answers written into the customer's own file. */
  async function original(
    orgId: number,
    questionnaire: Questionnaire,
    step: ExportStep,
    approvedOnly = false,
  ): Promise<BuiltFile> {
    // approved only (issue 39): a draft nobody approved leaves its cells as they came
    const answered = (row: QuestionRow) =>
      isAnswered(row) && (!approvedOnly || row.answer.status === 'approved')
    const [rows, where, source] = await Promise.all([
      deps.questionnaires.questionRows(orgId, questionnaire.id),
      targets(orgId, questionnaire.id),
      deps.questionnaires.original(orgId, questionnaire.id),
    ])
    let job: FillJob
    let written = 0
    if (source.kind === 'xlsx' || source.kind === 'csv') {
      const writes: CellWrite[] = []
      for (const row of rows) {
        const target = where.get(row.id)
        if (!answered(row) || target?.type !== 'cell') continue
        const cells = cellWrites(target, row)
        if (cells.length) written += 1
        for (const cell of cells) writes.push({ sheet: target.sheet, row: target.row, ...cell })
      }
      job = { kind: source.kind, writes }
    } else {
      const writes: DocxWrite[] = []
      for (const row of rows) {
        const target = where.get(row.id)
        if (!answered(row) || !target) continue
        const value = [row.answer.choice, row.answer.text.trim()].filter(Boolean).join(' - ')
        if (target.type === 'docx_cell') {
          writes.push({
            type: 'cell',
            table: target.table,
            row: target.row,
            cell: target.cell,
            value,
          })
          if (target.comment !== null && row.answer.comment.trim())
            writes.push({
              type: 'cell',
              table: target.table,
              row: target.row,
              cell: target.comment,
              value: row.answer.comment.trim(),
            })
          written += 1
        } else if (target.type === 'docx_paragraph') {
          writes.push({ type: 'after_paragraph', paragraph: target.paragraph, value })
          written += 1
        }
      }
      job = { kind: 'docx', writes }
    }
    await step(40, EXPORT_STEPS.writing)
    const data = await fillFile(source.path, job, deps.parseLimits)
    const extension = source.kind === 'xlsx' && /\.xlsm$/i.test(source.name) ? 'xlsm' : source.kind
    return {
      name: `${stem(source.name)} (filled).${extension}`,
      format: 'original',
      mime: source.mime,
      data,
      written,
      revision: questionnaire.revision,
    }
  }

  /** A clean table of every question and its answer. */
  async function basic(
    orgId: number,
    questionnaire: Questionnaire,
    format: 'xlsx' | 'csv',
    step: ExportStep,
  ): Promise<BuiltFile> {
    const rows = await deps.questionnaires.questionRows(orgId, questionnaire.id)
    const header = [
      'Tab',
      'ID',
      'Section',
      'Question',
      'Answer',
      'Value',
      'Comment',
      'Status',
      'Confidence',
      'Sources',
    ]
    const lines = rows.map((row) => [
      row.tab,
      row.ref ?? '',
      row.section ?? '',
      row.text,
      row.answer.text,
      row.answer.choice ?? '',
      row.answer.comment,
      ANSWER_STATUS_LABELS[row.answer.status],
      row.answer.confidence === null ? '' : `${Math.round(row.answer.confidence * 100)}%`,
      row.answer.citations.map((c) => c.title).join('; '),
    ])
    await step(40, EXPORT_STEPS.writing)
    const data = await basicFile({ format, header, lines }, deps.parseLimits)
    return {
      name: `${stem(questionnaire.name)} - answers.${format}`,
      format,
      mime: MIMES[format] as string,
      data,
      written: rows.filter(isAnswered).length,
      revision: questionnaire.revision,
    }
  }

  /** Builds the file of one export; a refusal of the worker is a ParseError in plain words. */
  async function build(
    orgId: number,
    questionnaireId: number,
    format: ExportFormat,
    step: ExportStep,
    approvedOnly = false,
  ) {
    const questionnaire = await exportable(orgId, questionnaireId, format)
    return format === 'original'
      ? original(orgId, questionnaire, step, approvedOnly)
      : basic(orgId, questionnaire, format, step)
  }

  return { exportable, build }
}

export type FileBuilder = ReturnType<typeof createFileBuilder>
