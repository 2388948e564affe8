/**
 * A word diff of two wordings of a question (issue 28: a question reworded since it was answered):
 * the longest common run of words is kept, the words only the earlier wording had are removed and
 * the words only the new one has are added. Runs of one kind are merged.
 */

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string }

const words = (text: string) => text.split(/\s+/).filter(Boolean)
/** Words compare without their case and trailing punctuation: 'data,' is the same word as 'Data'. */
const key = (word: string) => word.toLowerCase().replace(/[.,;:!?)"'’]+$/u, '')

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before)
  const b = words(after)
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as number[]
    const next = lcs[i + 1] as number[]
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        key(a[i] as string) === key(b[j] as string)
          ? (next[j + 1] as number) + 1
          : Math.max(next[j] as number, row[j + 1] as number)
    }
  }
  const parts: DiffPart[] = []
  const push = (kind: DiffPart['kind'], word: string) => {
    const last = parts[parts.length - 1]
    if (last?.kind === kind) last.text += ` ${word}`
    else parts.push({ kind, text: word })
  }
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (key(a[i] as string) === key(b[j] as string)) {
      // the new wording's word is shown
      push('same', b[j] as string)
      i++
      j++
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) push('removed', a[i++] as string)
    else push('added', b[j++] as string)
  }
  while (i < a.length) push('removed', a[i++] as string)
  while (j < b.length) push('added', b[j++] as string)
  return parts
}
