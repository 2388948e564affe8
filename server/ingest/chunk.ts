import type { PassageLocation } from '../../contract/knowledge.ts'
import type { ParsedPassage } from './types.ts'

/** A run of text from a document, before it is cut into passages. */
export interface Block {
  text: string
  location: PassageLocation
  qa?: { question: string; answer: string }
}

const MIN_CHARS = 300
const MAX_CHARS = 1_200

export const normalise = (text: string) =>
  text
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()

const hasLetters = (text: string) => /\p{L}{2}/u.test(text)

/** Cuts text longer than the maximum at sentence, then word boundaries. */
function split(text: string): string[] {
  if (text.length <= MAX_CHARS) return [text]
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n+|$)\s*/g) ?? [text]
  const parts: string[] = []
  let current = ''
  const flush = () => {
    if (current.trim()) parts.push(current.trim())
    current = ''
  }
  for (const sentence of sentences) {
    if (current.length + sentence.length > MAX_CHARS) flush()
    if (sentence.length > MAX_CHARS) {
      // one enormous sentence: cut between words
      const words = sentence.split(/(?<=\s)/)
      for (const word of words) {
        if (current.length + word.length > MAX_CHARS) flush()
        current += word
      }
      continue
    }
    current += sentence
  }
  flush()
  return parts
}

const sameLocation = (a: PassageLocation, b: PassageLocation) =>
  a.page === b.page &&
  a.sheet === b.sheet &&
  a.heading === b.heading &&
  a.row === undefined &&
  b.row === undefined

/**
 * Turns blocks into passages of roughly 300 to 1,200 characters: small neighbours at the same
 * place (page, heading) are merged, long ones cut at sentence boundaries; rows and Q/A pairs stay
 * one passage each. Passages without letters are dropped.
 */
export function toPassages(blocks: Block[]): ParsedPassage[] {
  const passages: ParsedPassage[] = []
  let pending = null as Block | null
  const emit = (block: Block) => {
    for (const part of split(normalise(block.text))) {
      if (!hasLetters(part)) continue
      passages.push({ text: part, location: block.location, ...(block.qa ? { qa: block.qa } : {}) })
    }
  }
  for (const raw of blocks) {
    const block = { ...raw, text: normalise(raw.text) }
    if (!block.text) continue
    if (block.qa || block.location.row !== undefined) {
      if (pending) emit(pending)
      pending = null
      emit(block)
      continue
    }
    if (
      pending &&
      sameLocation(pending.location, block.location) &&
      pending.text.length < MIN_CHARS &&
      pending.text.length + block.text.length <= MAX_CHARS
    ) {
      pending = { ...pending, text: `${pending.text}\n${block.text}` }
      continue
    }
    if (pending) emit(pending)
    pending = block
  }
  if (pending) emit(pending)
  return passages
}
