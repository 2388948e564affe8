import { strFromU8, unzipSync } from 'fflate'
import { ParseError, type TableSheet } from './types.ts'
import { decodeXml } from './xml.ts'

/**
 * A lean XLSX reader for ingestion and import: cell texts (shared strings, inline strings, numbers,
 * booleans and the cached results of formulas), merged ranges and sheet visibility, read straight
 * from the package's XML without building a styled workbook model, so memory follows the cells
 * that hold values rather than the rows a sheet formats. The package has already passed checkZip.
 */

const columnIndex = (letters: string) => {
  let index = 0
  for (const char of letters) index = index * 26 + (char.charCodeAt(0) - 64)
  return index - 1
}

function parseRef(ref: string): { row: number; column: number } | null {
  const match = /^\$?([A-Z]{1,3})\$?(\d+)$/.exec(ref)
  return match ? { column: columnIndex(match[1] ?? 'A'), row: Number(match[2]) - 1 } : null
}

const attr = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return match ? decodeXml(match[1] ?? '') : null
}

/** Text of <t> runs inside a shared or inline string, phonetic runs excluded. */
function stringItemText(xml: string): string {
  const withoutPhonetic = xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '')
  let text = ''
  for (const match of withoutPhonetic.matchAll(
    /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g,
  )) {
    text += decodeXml(match[1] ?? '')
  }
  return text
}

function excelDate(serial: number) {
  const ms = Math.round((serial - 25569) * 86_400_000)
  return new Date(ms).toISOString().slice(0, 10)
}

/** A list validation on some cells: its allowed values, when they could be resolved. */
export interface ListValidation {
  /** Space-separated ranges, as in the sheet (C3:C264 C270). */
  sqref: string
  /** The formula as written: a quoted list, a range or a defined name. */
  source: string
  values: string[] | null
}

export interface WorkbookSheet extends TableSheet {
  hidden: boolean
  validations: ListValidation[]
  merges: string[]
  /** Cells with text drawn bold or shaded, by `emphasisKey(row, column)` (0-based). */
  emphasis: Set<number>
}

/** The key of a cell in `WorkbookSheet.emphasis`. */
export const emphasisKey = (row: number, column: number) => row * 16_384 + column

export function readXlsx(buffer: Buffer, options: { fillMerged: boolean }): TableSheet[] {
  return readWorkbook(buffer, options)
    .sheets.filter((sheet) => !sheet.hidden)
    .map(({ name, rows }) => ({ name, rows }))
}

/**
 * Every sheet (hidden ones too, for the lists they hold), with list validations resolved: quoted
 * lists, ranges on any sheet, defined names, and the x14 extension validations newer Excel writes.
 */
export function readWorkbook(
  buffer: Buffer,
  options: { fillMerged: boolean },
): { sheets: WorkbookSheet[]; names: Map<string, string> } {
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(new Uint8Array(buffer), {
      filter: (file) =>
        /^(xl\/(workbook\.xml|sharedStrings\.xml|styles\.xml|worksheets\/[^/]+\.xml|_rels\/workbook\.xml\.rels))$/i.test(
          file.name,
        ),
    })
  } catch {
    throw new ParseError('The file is damaged or not a valid Excel workbook')
  }
  const read = (name: string) => {
    const data = files[name]
    return data ? strFromU8(data) : null
  }
  const workbook = read('xl/workbook.xml')
  const rels = read('xl/_rels/workbook.xml.rels')
  if (!workbook || !rels) throw new ParseError('The file is damaged or not a valid Excel workbook')

  const shared: string[] = []
  const sharedXml = read('xl/sharedStrings.xml')
  if (sharedXml)
    for (const match of sharedXml.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g))
      shared.push(stringItemText(match[1] ?? ''))

  // number formats that show dates, so date serials read as dates; styles drawn bold or shaded
  const dateStyles = new Set<number>()
  const strongStyles = new Set<number>()
  const styles = read('xl/styles.xml')
  if (styles) {
    const listed = (tag: string) =>
      [
        ...(new RegExp(`<${tag}s[^>]*>([\\s\\S]*?)</${tag}s>`).exec(styles)?.[1] ?? '').matchAll(
          new RegExp(`<${tag}\\b[^>]*?(?:/>|>([\\s\\S]*?)</${tag}>)`, 'g'),
        ),
      ].map((m) => m[1] ?? '')
    const bold = listed('font').map((font) => /<b(?:\s+val="(?:1|true)")?\s*\/>/.test(font))
    const shaded = listed('fill').map((fill) => /patternType="solid"/.test(fill))
    const custom = new Map<number, string>()
    for (const m of styles.matchAll(/<numFmt\s[^>]*>/g)) {
      const id = Number(attr(m[0], 'numFmtId'))
      custom.set(id, attr(m[0], 'formatCode') ?? '')
    }
    const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? ''
    let index = 0
    for (const m of cellXfs.matchAll(/<xf\s[^>]*?(\/>|>)/g)) {
      const id = Number(attr(m[0], 'numFmtId') ?? 0)
      if (bold[Number(attr(m[0], 'fontId') ?? 0)] || shaded[Number(attr(m[0], 'fillId') ?? 0)])
        strongStyles.add(index)
      const code = custom.get(id) ?? ''
      if (
        (id >= 14 && id <= 22) ||
        (id >= 45 && id <= 47) ||
        /(^|[^\\"])[dy]/i.test(code.replace(/"[^"]*"/g, ''))
      )
        dateStyles.add(index)
      index += 1
    }
  }

  const targets = new Map<string, string>()
  for (const m of rels.matchAll(/<Relationship\s[^>]*>/g)) {
    const id = attr(m[0], 'Id')
    const target = attr(m[0], 'Target')
    if (id && target) targets.set(id, target.replace(/^\/?(xl\/)?/, 'xl/'))
  }
  const names = new Map<string, string>()
  for (const m of workbook.matchAll(/<definedName\s([^>]*)>([^<]*)<\/definedName>/g)) {
    // sheet-local names shadow global ones only on their sheet; the global one is what lists use
    if (/localSheetId=/.test(m[1] ?? '')) continue
    const name = attr(` ${m[1]}`, 'name')
    if (name) names.set(name.toLowerCase(), decodeXml(m[2] ?? ''))
  }
  const sheets: WorkbookSheet[] = []
  const xmls: string[] = []
  for (const m of workbook.matchAll(/<sheet\s[^>]*>/g)) {
    const state = attr(m[0], 'state')
    const name = attr(m[0], 'name') ?? 'Sheet'
    const relId = attr(m[0], 'r:id')
    const xml = relId ? read(targets.get(relId) ?? '') : null
    if (!xml) continue
    xmls.push(xml)
    const emphasis = new Set<number>()
    sheets.push({
      name,
      hidden: state === 'hidden' || state === 'veryHidden',
      rows: readSheet(xml, shared, { dates: dateStyles, strong: strongStyles, emphasis }, options),
      validations: [],
      emphasis,
      merges: [...xml.matchAll(/<mergeCell\s+ref="([A-Z]+\d+:[A-Z]+\d+)"/g)].map(
        (r) => r[1] as string,
      ),
    })
  }
  sheets.forEach((sheet, index) => {
    sheet.validations = readValidations(xmls[index] as string).map((v) => ({
      ...v,
      values: resolveList(v.source, sheet, sheets, names),
    }))
  })
  return { sheets, names }
}

function readValidations(xml: string): { sqref: string; source: string }[] {
  const found: { sqref: string; source: string }[] = []
  for (const m of xml.matchAll(/<dataValidation\s([^>]*)>([\s\S]*?)<\/dataValidation>/g)) {
    if (attr(` ${m[1]}`, 'type') !== 'list') continue
    const formula = /<formula1>([\s\S]*?)<\/formula1>/.exec(m[2] ?? '')?.[1]
    const sqref = attr(` ${m[1]}`, 'sqref')
    if (formula && sqref) found.push({ sqref, source: decodeXml(formula) })
  }
  for (const m of xml.matchAll(/<x14:dataValidation\s([^>]*)>([\s\S]*?)<\/x14:dataValidation>/g)) {
    if (attr(` ${m[1]}`, 'type') !== 'list') continue
    const formula = /<x14:formula1>\s*<xm:f>([\s\S]*?)<\/xm:f>/.exec(m[2] ?? '')?.[1]
    const sqref = /<xm:sqref>([\s\S]*?)<\/xm:sqref>/.exec(m[2] ?? '')?.[1]
    if (formula && sqref) found.push({ sqref: sqref.trim(), source: decodeXml(formula) })
  }
  return found
}

/** The values a list validation allows, or null when its source cannot be read. */
function resolveList(
  source: string,
  sheet: WorkbookSheet,
  sheets: WorkbookSheet[],
  names: Map<string, string>,
  depth = 0,
): string[] | null {
  const formula = source.trim().replace(/^=/, '')
  if (formula.startsWith('"')) {
    return formula
      .replace(/^"|"$/g, '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
  }
  const named = names.get(formula.toLowerCase())
  if (named !== undefined)
    return depth < 3 ? resolveList(named, sheet, sheets, names, depth + 1) : null
  const match =
    /^(?:(?:'((?:[^']|'')+)'|([^!'"]+))!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/.exec(
      formula,
    )
  if (!match) return null
  const sheetName = match[1]?.replace(/''/g, "'") ?? match[2]
  const target = sheetName ? sheets.find((s) => s.name === sheetName) : sheet
  if (!target) return null
  const c1 = columnIndex(match[3] as string)
  const r1 = Number(match[4]) - 1
  const c2 = match[5] ? columnIndex(match[5]) : c1
  const r2 = match[6] ? Number(match[6]) - 1 : r1
  const values: string[] = []
  for (let r = r1; r <= Math.min(r2, r1 + 500); r++) {
    for (let c = c1; c <= Math.min(c2, c1 + 50); c++) {
      const value = target.rows[r]?.[c]?.trim()
      if (value) values.push(value)
    }
  }
  return values
}

/** True when the 0-based (row, column) lies in one of the space-separated ranges. */
export function inSqref(sqref: string, row: number, column: number): boolean {
  for (const part of sqref.split(/\s+/)) {
    const [from, to = from] = part.split(':')
    const a = parseRef(from ?? '')
    const b = parseRef(to ?? '')
    if (a && b && row >= a.row && row <= b.row && column >= a.column && column <= b.column)
      return true
  }
  return false
}

/** A cell's style index (its `s` attribute). */
const STYLE = /\ss="(\d+)"/

function readSheet(
  xml: string,
  shared: string[],
  styles: { dates: Set<number>; strong: Set<number>; emphasis: Set<number> },
  { fillMerged }: { fillMerged: boolean },
): string[][] {
  const dateStyles = styles.dates
  const rows: string[][] = []
  const data = /<sheetData[^>]*>([\s\S]*?)<\/sheetData>/.exec(xml)?.[1] ?? ''
  let nextRow = 0
  for (const rowMatch of data.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const rowNumber = Number(attr(rowMatch[1] ?? '', 'r') ?? nextRow + 1) - 1
    nextRow = rowNumber + 1
    const body = rowMatch[2]
    if (!body) continue
    const cells: string[] = []
    let nextColumn = 0
    for (const cellMatch of body.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const head = cellMatch[1] ?? ''
      const ref = attr(head, 'r')
      const column = ref ? (parseRef(ref)?.column ?? nextColumn) : nextColumn
      nextColumn = column + 1
      const inner = cellMatch[2]
      if (!inner) continue
      const type = attr(head, 't')
      const value = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/.exec(inner)?.[1]
      let text = ''
      if (type === 's') text = shared[Number(value)] ?? ''
      else if (type === 'inlineStr')
        text = stringItemText(/<is>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? '')
      else if (type === 'b') text = value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : ''
      else if (type === 'e') text = ''
      else if (value !== undefined) {
        const raw = decodeXml(value)
        const style = Number(attr(head, 's') ?? -1)
        const number = Number(raw)
        text =
          type !== 'str' &&
          dateStyles.has(style) &&
          Number.isFinite(number) &&
          number > 0 &&
          number < 2_958_466
            ? excelDate(number)
            : raw
      }
      text = text.trim()
      if (!text) continue
      cells[column] = text
      if (styles.strong.size && styles.strong.has(Number(STYLE.exec(head)?.[1] ?? 0)))
        styles.emphasis.add(emphasisKey(rowNumber, column))
    }
    if (cells.length) rows[rowNumber] = Array.from(cells, (cell) => cell ?? '')
  }
  if (fillMerged) {
    const merges = /<mergeCells[^>]*>([\s\S]*?)<\/mergeCells>/.exec(xml)?.[1] ?? ''
    for (const m of merges.matchAll(/<mergeCell\s+ref="([A-Z]+\d+):([A-Z]+\d+)"/g)) {
      const from = parseRef(m[1] ?? '')
      const to = parseRef(m[2] ?? '')
      if (!from || !to) continue
      const value = rows[from.row]?.[from.column]
      if (!value) continue
      // guard against whole-column merges: fill only rows that exist
      for (let r = from.row; r <= Math.min(to.row, from.row + 1000); r++) {
        const row = rows[r] ?? []
        for (let c = from.column; c <= Math.min(to.column, from.column + 100); c++) row[c] = value
        rows[r] = Array.from(row, (cell) => cell ?? '')
      }
    }
  }
  const dense = Array.from(rows, (row) => row ?? [])
  while (dense.length && !dense[dense.length - 1]?.some(Boolean)) dense.pop()
  return dense
}
