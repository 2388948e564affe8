/** A-style column letters from a 0-based index (0 → A, 26 → AA). */
export const columnLetters = (index: number) => {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

/** A1-style reference of a 1-based row and 0-based column. */
export const cellRef = (row: number, column: number) => `${columnLetters(column)}${row}`
