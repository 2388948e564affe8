import { emphasisKey, inSqref, type ListValidation } from '../ingest/xlsx.ts'

/** A tab as the analysis reads it: its cell texts, and what the file says of its cells. */
export interface SheetInput {
  name: string
  rows: string[][]
  validations?: ListValidation[]
  /** Merged ranges ('B4:D4'), when the file has them. */
  merges?: string[]
  /** Cells with text drawn bold or shaded (`emphasisKey`), when the file says. */
  emphasis?: Set<number>
}

export const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
export const isText = (cell: string | undefined) =>
  Boolean(cell && cell.trim().length >= 3 && /\p{L}{2}/u.test(cell))
export const nonEmpty = (row: string[] | undefined) =>
  (row ?? []).flatMap((cell, column) => (cell?.trim() ? [column] : []))
/** The different texts of a row (a merged cell filled across counts once). */
export const distinctTexts = (row: string[] | undefined) => [
  ...new Set((row ?? []).map(clean).filter(Boolean)),
]

/** The values of the list validation on a cell, or null. */
export const validationAt = (
  validations: ListValidation[] | undefined,
  row: number,
  column: number,
) => validations?.find((v) => inSqref(v.sqref, row, column) && v.values?.length)?.values ?? null

interface Range {
  top: number
  left: number
  bottom: number
  right: number
}

const columnOf = (letters: string) =>
  [...letters].reduce((index, char) => index * 26 + char.charCodeAt(0) - 64, 0) - 1

/** 'B4:D4' or 'C7' as 0-based bounds; null when it is not a cell range. */
function rangeOf(ref: string): Range | null {
  const match = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/.exec(ref.trim())
  if (!match) return null
  const left = columnOf(match[1] as string)
  const top = Number(match[2]) - 1
  return {
    top,
    left,
    bottom: match[4] ? Number(match[4]) - 1 : top,
    right: match[3] ? columnOf(match[3]) : left,
  }
}

const within = (range: Range, row: number, column: number) =>
  row >= range.top && row <= range.bottom && column >= range.left && column <= range.right

// parsed once per sheet: tabs are asked about every row
const listRanges = new WeakMap<SheetInput, Range[]>()
const mergeRanges = new WeakMap<SheetInput, Map<number, Range[]>>()

/** Whether a cell offers a list to choose from. */
export function listedAt(sheet: SheetInput, row: number, column: number) {
  let ranges = listRanges.get(sheet)
  if (!ranges) {
    ranges = (sheet.validations ?? []).flatMap((v) =>
      v.sqref.split(/\s+/).flatMap((ref) => rangeOf(ref) ?? []),
    )
    listRanges.set(sheet, ranges)
  }
  return ranges.some((range) => within(range, row, column))
}

/** Whether one merged range on the row covers both columns (0-based row and columns). */
export function mergedAcross(sheet: SheetInput, row: number, from: number, to: number) {
  let byRow = mergeRanges.get(sheet)
  if (!byRow) {
    byRow = new Map()
    for (const range of (sheet.merges ?? []).flatMap((ref) => rangeOf(ref) ?? [])) {
      // as the reader fills merged cells: rows that exist, a thousand at most
      const last = Math.min(range.bottom, range.top + 1000, sheet.rows.length)
      for (let r = range.top; r <= last; r++) byRow.set(r, [...(byRow.get(r) ?? []), range])
    }
    mergeRanges.set(sheet, byRow)
  }
  return (byRow.get(row) ?? []).some((range) => within(range, row, from) && within(range, row, to))
}

/** Whether the file draws the cell bold or shaded. */
export const emphasisedAt = (sheet: SheetInput, row: number, column: number) =>
  Boolean(sheet.emphasis?.has(emphasisKey(row, column)))
