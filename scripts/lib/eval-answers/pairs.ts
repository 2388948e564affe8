import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { ageBandOf } from '../../../server/answering/calibration.ts'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import { instructure, shared } from './data.ts'

/**
 * Protocol h, answers over time: pairs of the same product's completed questionnaires of
 * different dates. The library is the older file's rows, each dated by the older file's own date;
 * the questionnaire is the newer file, its answers never read, answered on the newer file's own
 * date (`--today YYYY-MM-DD` sets it); the gold is the newer file's own answers. An entry falls
 * stale after the default cycle (365 days).
 */
export interface Pair {
  name: string
  older: DatedFile
  newer: DatedFile
  /** The older file's age on the day the newer is answered. */
  ageDays: number
  today: string
}

/** A completed file and the day it was answered, with where that day comes from. */
interface DatedFile {
  file: string
  date: string
  /** Where the date comes from: the workbook's own date field, else its document properties. */
  datedBy:
    | 'file name'
    | 'workbook date field'
    | 'document properties (modified)'
    | 'document properties (created)'
  /** The document properties' modified date, beside it (they may disagree). */
  modified: string | null
}

/**
 * A completed workbook's own date: a cell that says 'Date' and, on its right in the same row, a
 * date (the vendor's answer); else the document properties' modified date, else their created date.
 * `--dated-by properties` reads the properties only (where a workbook's field and properties
 * disagree, to see what the other reading gives).
 */
function dateOfWorkbook(file: string, byProperties: boolean): DatedFile | null {
  const buffer = readFileSync(file)
  const core = unzipSync(new Uint8Array(buffer), {
    filter: (entry) => entry.name === 'docProps/core.xml',
  })['docProps/core.xml']
  const properties = core ? strFromU8(core) : ''
  const property = (name: string) =>
    new RegExp(`<dcterms:${name}[^>]*>(\\d{4}-\\d{2}-\\d{2})`).exec(properties)?.[1] ?? null
  const modified = property('modified')
  for (const sheet of byProperties ? [] : readWorkbook(buffer, { fillMerged: false }).sheets)
    for (const row of sheet.rows.slice(0, 30)) {
      const at = row.findIndex((cell) => /^\s*date\s*:?\s*$/i.test(cell ?? ''))
      if (at < 0) continue
      const date = row
        .slice(at + 1)
        .map((cell) => /^\d{4}-\d{2}-\d{2}/.exec((cell ?? '').trim())?.[0])
        .find(Boolean)
      if (date) return { file, date, datedBy: 'workbook date field', modified }
    }
  if (modified) return { file, date: modified, datedBy: 'document properties (modified)', modified }
  const created = property('created')
  return created
    ? { file, date: created, datedBy: 'document properties (created)', modified }
    : null
}

const DAY_MS = 86_400_000

/**
 * The pairs: completed workbooks of one product (the file name before '_HECVAT_'), each dated,
 * every older one with every newer one.
 */
export function datedPairs(today: string | undefined, byProperties = false): Pair[] {
  const byProduct = new Map<string, DatedFile[]>()
  for (const name of existsSync(instructure) ? readdirSync(instructure).sort() : []) {
    const product = /^(.+?)_HECVAT_.*\.xlsx$/i.exec(name)?.[1]
    if (!product) continue
    const dated = dateOfWorkbook(path.join(instructure, name), byProperties)
    if (!dated) continue
    byProduct.set(product, [...(byProduct.get(product) ?? []), dated])
  }
  // the dated vendors (dated/<vendor>/): their answers converted to CSV, each dated by the date
  // its file name ends in (the date the vendor published them)
  const dated = path.join(shared, 'dated')
  for (const vendor of existsSync(dated) ? readdirSync(dated).sort() : []) {
    for (const name of readdirSync(path.join(dated, vendor)).sort()) {
      const found = /^(.+?)_(\d{4}-\d{2}-\d{2})\.csv$/i.exec(name)
      if (!found?.[1] || !found[2]) continue
      const product = `${vendor}/${found[1]}`
      const file: DatedFile = {
        file: path.join(dated, vendor, name),
        date: found[2],
        datedBy: 'file name',
        modified: null,
      }
      byProduct.set(product, [...(byProduct.get(product) ?? []), file])
    }
  }
  const pairs: Pair[] = []
  for (const [product, files] of byProduct) {
    const sorted = [...files].sort((a, b) => a.date.localeCompare(b.date))
    for (const [i, older] of sorted.entries())
      for (const newer of sorted.slice(i + 1)) {
        if (newer.date === older.date) continue
        const day = today ?? newer.date
        const short = (file: string) =>
          product.includes('/')
            ? `${product.split('/')[0]}:${path.basename(file, '.csv').slice(-10)}`
            : path
                .basename(file, '.xlsx')
                .slice(product.length + 1)
                .replace(/^HECVAT_/, '')
        pairs.push({
          name: `h:${short(older.file)}>${short(newer.file)}`,
          older,
          newer,
          ageDays: Math.max(0, Math.floor((Date.parse(day) - Date.parse(older.date)) / DAY_MS)),
          today: day,
        })
      }
  }
  return pairs
}

/** A pair as printed: its two files, their dates and where each comes from, the library's age. */
export const describePair = (pair: Pair) => ({
  pair: pair.name,
  library: path.basename(pair.older.file),
  library_date: pair.older.date,
  library_dated_by: pair.older.datedBy,
  library_properties_modified: pair.older.modified,
  questionnaire: path.basename(pair.newer.file),
  questionnaire_date: pair.newer.date,
  questionnaire_dated_by: pair.newer.datedBy,
  questionnaire_properties_modified: pair.newer.modified,
  today: pair.today,
  age_days: pair.ageDays,
  age_band: ageBandOf(pair.ageDays),
})
