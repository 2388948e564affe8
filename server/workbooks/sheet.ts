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

/** Whether a cell offers a list to choose from. */
export const listedAt = (sheet: SheetInput, row: number, column: number) =>
  Boolean(sheet.validations?.some((v) => inSqref(v.sqref, row, column)))

/** Whether one merged range on the row covers both columns (0-based row and columns). */
export function mergedAcross(sheet: SheetInput, row: number, from: number, to: number) {
  return Boolean(
    sheet.merges?.some((range) => inSqref(range, row, from) && inSqref(range, row, to)),
  )
}

/** Whether the file draws the cell bold or shaded. */
export const emphasisedAt = (sheet: SheetInput, row: number, column: number) =>
  Boolean(sheet.emphasis?.has(emphasisKey(row, column)))
