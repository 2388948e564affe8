import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from 'fflate'
import { escapeXml } from '../ingest/xml.ts'
import { columnLetters } from './cells.ts'

/**
 * Writes answers into a workbook by patching the answer cells in the sheets' XML and nothing else:
 * every other part of the package (styles, hidden sheets, validations including x14 extensions,
 * merged ranges, defined names, formulas, protection, column widths) is carried over unchanged.
 * Values that a spreadsheet would run as a formula are neutralised with a leading apostrophe (UP9).
 */

export interface CellWrite {
  /** The sheet's name as the workbook lists it. */
  sheet: string
  /** 1-based row and 0-based column. */
  row: number
  column: number
  value: string
}

const FORMULA_START = /^[=+\-@\t\r\0]/

/** UP9: a leading = + - @ tab, CR or NUL would make a spreadsheet run the text as a formula. */
export const neutralise = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value)

const columnOf = (ref: string) => {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? 'A'
  let index = 0
  for (const char of letters) index = index * 26 + (char.charCodeAt(0) - 64)
  return index - 1
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null

function inlineCell(ref: string, style: string | null, value: string) {
  const text = escapeXml(neutralise(value))
  return `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`
}

/** Patches one sheet's XML; returns the new XML and the refs it could not write (formula cells). */
export function patchSheetXml(
  xml: string,
  writes: { row: number; column: number; value: string }[],
) {
  const skipped: string[] = []
  const byRow = new Map<number, { column: number; value: string }[]>()
  for (const write of writes) {
    const list = byRow.get(write.row) ?? []
    list.push(write)
    byRow.set(write.row, list)
  }
  const dataStart = xml.search(/<sheetData\b/)
  if (dataStart < 0) throw new Error('The sheet has no cell data')
  const selfClosing = /<sheetData\s*\/>/.exec(xml)
  let out = selfClosing ? xml.replace(selfClosing[0], '<sheetData></sheetData>') : xml
  const open = out.indexOf('>', out.search(/<sheetData\b/)) + 1
  const close = out.indexOf('</sheetData>')
  let data = out.slice(open, close)
  const pending = new Map(byRow)
  data = data.replace(
    /<row\b([^>]*?)(\/>|>([\s\S]*?)<\/row>)/g,
    (whole, head: string, _end: string, body = '') => {
      const rowNumber = Number(attr(head, 'r'))
      const rowWrites = pending.get(rowNumber)
      if (!rowWrites) return whole
      pending.delete(rowNumber)
      let cells: string = body
      for (const write of rowWrites) {
        const ref = `${columnLetters(write.column)}${rowNumber}`
        const existing = new RegExp(`<c\\b[^>]*\\sr="${ref}"[^>]*?(?:/>|>[\\s\\S]*?</c>)`).exec(
          cells,
        )
        if (existing) {
          if (/<f[\s>]/.test(existing[0])) {
            skipped.push(ref)
            continue
          }
          cells = cells.replace(existing[0], inlineCell(ref, attr(existing[0], 's'), write.value))
          continue
        }
        // insert in column order
        let inserted = false
        cells = cells.replace(
          /<c\b[^>]*\sr="([A-Z]+)\d+"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g,
          (cell: string, letters: string) => {
            if (!inserted && columnOf(letters) > write.column) {
              inserted = true
              return inlineCell(ref, null, write.value) + cell
            }
            return cell
          },
        )
        if (!inserted) cells += inlineCell(ref, null, write.value)
      }
      // a <row .../> with spans must still cover the written columns: drop spans, they are optional
      const newHead = head.replace(/\sspans="[^"]*"/, '')
      return `<row${newHead}>${cells}</row>`
    },
  )
  // rows that did not exist yet, inserted in row order
  for (const [rowNumber, rowWrites] of [...pending.entries()].sort((a, b) => a[0] - b[0])) {
    const cells = rowWrites
      .sort((a, b) => a.column - b.column)
      .map((w) => inlineCell(`${columnLetters(w.column)}${rowNumber}`, null, w.value))
      .join('')
    const row = `<row r="${rowNumber}">${cells}</row>`
    let placed = false
    data = data.replace(/<row\b[^>]*\sr="(\d+)"/g, (match: string, r: string) => {
      if (!placed && Number(r) > rowNumber) {
        placed = true
        return row + match
      }
      return match
    })
    if (!placed) data += row
  }
  out = out.slice(0, open) + data + out.slice(close)
  return { xml: out, skipped }
}

/** Writes the answers into a copy of the workbook; the original buffer is not modified. */
export function patchWorkbook(original: Uint8Array, writes: CellWrite[]) {
  const files = unzipSync(original)
  const workbook = strFromU8(files['xl/workbook.xml'] ?? new Uint8Array())
  const rels = strFromU8(files['xl/_rels/workbook.xml.rels'] ?? new Uint8Array())
  const targets = new Map<string, string>()
  for (const m of rels.matchAll(/<Relationship\s[^>]*>/g)) {
    const id = attr(m[0], 'Id')
    const target = attr(m[0], 'Target')
    if (id && target) targets.set(id, target.replace(/^\/?(xl\/)?/, 'xl/'))
  }
  const sheetPaths = new Map<string, string>()
  for (const m of workbook.matchAll(/<sheet\s[^>]*>/g)) {
    const name = attr(m[0], 'name')
      ?.replace(/&amp;/g, '&')
      .replace(/&apos;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
    const relId = attr(m[0], 'r:id')
    const target = relId ? targets.get(relId) : undefined
    if (name && target) sheetPaths.set(name, target)
  }
  const skipped: string[] = []
  const bySheet = new Map<string, CellWrite[]>()
  for (const write of writes) {
    const list = bySheet.get(write.sheet) ?? []
    list.push(write)
    bySheet.set(write.sheet, list)
  }
  const output: Zippable = {}
  const patched = new Map<string, Uint8Array>()
  for (const [sheet, sheetWrites] of bySheet) {
    const target = sheetPaths.get(sheet)
    const data = target ? files[target] : undefined
    if (!target || !data) throw new Error(`The workbook has no sheet named ${sheet}`)
    const result = patchSheetXml(strFromU8(data), sheetWrites)
    skipped.push(...result.skipped.map((ref) => `${sheet}!${ref}`))
    patched.set(target, strToU8(result.xml))
  }
  // same entries, same order; only the patched sheets differ
  for (const [name, data] of Object.entries(files)) output[name] = patched.get(name) ?? data
  return { buffer: Buffer.from(zipSync(output, { level: 6 })), skipped }
}
