import {
  ANSWER_STATUS_LABELS,
  type ExportFormat,
  type FilledFile,
  QUESTIONNAIRE_TEXTS,
  type QuestionRow,
} from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { basicFile, fillFile, ParseError, type ParseLimits } from '../../ingest/index.ts'
import type { Storage } from '../../storage/index.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'
import type { DocxWrite } from '../../workbooks/docx.ts'
import type { FillJob } from '../../workbooks/fill.ts'
import type { CellWrite } from '../../workbooks/patch-xlsx.ts'
import { auditQuestionnaire, recordActivity } from '../collaboration/activity.ts'
import type { QuestionnaireService } from './service.ts'

/**
 * Filled files: answers written into the customer's own file (XLSX cells patched in the sheet XML,
 * DOCX table cells, CSV cells), or a clean basic table. Every export is kept as a version; the
 * latest is current while the questionnaire's revision has not moved on. The files themselves
 * are built in a worker process with a deadline and memory caps (server/workbooks/fill.ts):
 * the API only decides what goes where.
 */

const MIMES: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

const answered = (row: QuestionRow) =>
  ['generated', 'edited', 'approved'].includes(row.answer.status) &&
  (row.answer.text.trim() !== '' || row.answer.choice !== null)

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

export function createExportService(deps: {
  database: Database
  storage: Storage
  questionnaires: QuestionnaireService
  parseLimits?: Partial<ParseLimits>
}) {
  const { pool } = deps.database

  /** Runs the building of a file in a worker; its refusals reach the user in plain words. */
  async function build(work: () => Promise<Buffer>) {
    try {
      return await work()
    } catch (error) {
      if (error instanceof ParseError)
        throw apiError(422, error.message, { code: 'export_failed', msg: error.message })
      throw error
    }
  }

  interface FilledDb {
    id: string
    questionnaire_id: string
    name: string
    format: ExportFormat
    size_bytes: string
    revision: number
    answers_written: number
    created_at: Date
    current_revision: number
  }
  const toFilled = (row: FilledDb): FilledFile => ({
    id: Number(row.id),
    questionnaire_id: Number(row.questionnaire_id),
    name: row.name,
    format: row.format,
    size: Number(row.size_bytes),
    revision: row.revision,
    current: row.revision === row.current_revision,
    answers_written: row.answers_written,
    created_at: row.created_at.toISOString(),
  })
  const FILLED_SQL = `select f.id, f.questionnaire_id, f.name, f.format, f.size_bytes, f.revision, f.answers_written,
      f.created_at, q.revision as current_revision
    from filled_files f join questionnaires q on q.id = f.questionnaire_id`

  async function targets(orgId: number, questionnaireId: number) {
    const { rows } = await pool.query<{ id: string; target: AnswerTarget | null }>(
      `select id, target from questionnaire_questions
        where org_id = $1 and questionnaire_id = $2 and deleted_at is null`,
      [orgId, questionnaireId],
    )
    return new Map(rows.map((row) => [Number(row.id), row.target]))
  }

  const stem = (name: string) => name.replace(/\.[^.]+$/, '') || 'questionnaire'

  async function save(
    orgId: number,
    userId: number,
    questionnaireId: number,
    revision: number,
    file: { name: string; format: ExportFormat; mime: string; data: Buffer; written: number },
  ) {
    const temp = await deps.storage.tempFromBuffer(file.data)
    let key: string | null = null
    try {
      key = await deps.storage.commit(orgId, temp)
      // the filled file and the activity's line (issue 29) are written together
      const rows = await inTransaction(pool, async (client) => {
        const inserted = await client.query<{ id: string }>(
          `insert into filled_files (org_id, questionnaire_id, name, format, mime, size_bytes, storage_key, revision, answers_written, created_by)
         select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 where exists (select 1 from questionnaires where org_id = $1 and id = $2)
         returning id`,
          [
            orgId,
            questionnaireId,
            file.name,
            file.format,
            file.mime,
            file.data.length,
            key,
            revision,
            file.written,
            userId,
          ],
        )
        if (inserted.rows[0])
          await recordActivity(client, {
            orgId,
            questionnaireId,
            kind: 'exported',
            summary: `Exported ${file.name} (${file.written.toLocaleString('en')} ${file.written === 1 ? 'answer' : 'answers'} written)`,
            userId,
          })
        return inserted.rows
      })
      if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
      return filled(orgId, Number(rows[0].id))
    } catch (error) {
      if (key) await deps.storage.delete(orgId, key).catch(() => undefined)
      else await deps.storage.discard(temp)
      throw error
    }
  }

  async function filled(orgId: number, id: number) {
    const { rows } = await pool.query<FilledDb>(`${FILLED_SQL} where f.org_id = $1 and f.id = $2`, [
      orgId,
      id,
    ])
    if (!rows[0]) throw notFound('Filled file not found')
    return toFilled(rows[0])
  }

  async function ready(orgId: number, questionnaireId: number) {
    const questionnaire = await deps.questionnaires.get(orgId, questionnaireId)
    if (questionnaire.status === 'queued' || questionnaire.status === 'analyzing')
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
    return questionnaire
  }

  /** The answers written into the customer's own file. */
  async function exportOriginal(orgId: number, userId: number, questionnaireId: number) {
    const questionnaire = await ready(orgId, questionnaireId)
    if (!questionnaire.can_export_original)
      throw apiError(400, QUESTIONNAIRE_TEXTS.noExportOriginal, { code: 'validation_error' })
    const [rows, where, source] = await Promise.all([
      deps.questionnaires.questionRows(orgId, questionnaireId),
      targets(orgId, questionnaireId),
      deps.questionnaires.original(orgId, questionnaireId),
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
    const data = await build(() => fillFile(source.path, job, deps.parseLimits))
    const extension = source.kind === 'xlsx' && /\.xlsm$/i.test(source.name) ? 'xlsm' : source.kind
    const filledFile = await save(orgId, userId, questionnaireId, questionnaire.revision, {
      name: `${stem(source.name)} (filled).${extension}`,
      format: 'original',
      mime: source.mime,
      data,
      written,
    })
    return { filled_file: filledFile }
  }

  /** A clean table of every question and its answer. */
  async function exportBasic(
    orgId: number,
    userId: number,
    questionnaireId: number,
    format: 'xlsx' | 'csv',
  ) {
    const questionnaire = await ready(orgId, questionnaireId)
    const rows = await deps.questionnaires.questionRows(orgId, questionnaireId)
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
    const data = await build(() => basicFile({ format, header, lines }, deps.parseLimits))
    const filledFile = await save(orgId, userId, questionnaireId, questionnaire.revision, {
      name: `${stem(questionnaire.name)} - answers.${format}`,
      format,
      mime: MIMES[format] as string,
      data,
      written: rows.filter(answered).length,
    })
    return { filled_file: filledFile }
  }

  async function latest(orgId: number, questionnaireId: number) {
    await deps.questionnaires.get(orgId, questionnaireId)
    const { rows } = await pool.query<FilledDb>(
      `${FILLED_SQL} where f.org_id = $1 and f.questionnaire_id = $2 order by f.id desc limit 1`,
      [orgId, questionnaireId],
    )
    return rows[0] ? toFilled(rows[0]) : null
  }

  async function check(orgId: number, questionnaireId: number) {
    const file = await latest(orgId, questionnaireId)
    return { exists: file !== null, current: file?.current ?? false, filled_file: file }
  }

  /** A filled file; with `actorId`, its download is audited with the questionnaire's name. */
  async function blob(orgId: number, id: number, actorId?: number) {
    const { rows } = await pool.query<{
      name: string
      mime: string
      storage_key: string
      size_bytes: string
      questionnaire_id: string
    }>(
      `select name, mime, storage_key, size_bytes, questionnaire_id from filled_files
        where org_id = $1 and id = $2`,
      [orgId, id],
    )
    const row = rows[0]
    if (!row) throw notFound('Filled file not found')
    if (actorId !== undefined)
      await auditQuestionnaire(
        pool,
        { orgId, actorId },
        'questionnaire.filled_file_downloaded',
        Number(row.questionnaire_id),
        { file: row.name, filled_file_id: id },
      )
    return {
      name: row.name,
      mime: row.mime,
      size: Number(row.size_bytes),
      stream: deps.storage.open(orgId, row.storage_key),
    }
  }

  async function latestBlob(orgId: number, questionnaireId: number, actorId?: number) {
    const file = await latest(orgId, questionnaireId)
    if (!file) throw notFound(QUESTIONNAIRE_TEXTS.noFilledFile)
    return blob(orgId, file.id, actorId)
  }

  return { exportOriginal, exportBasic, check, latest, blob, latestBlob }
}

export type ExportService = ReturnType<typeof createExportService>
