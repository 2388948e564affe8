import { readFile } from 'node:fs/promises'
import { strFromU8, unzipSync } from 'fflate'

/**
 * The date a completed questionnaire states it was answered (issue 28): a row whose question is
 * 'Date' (or 'Date completed', 'Last updated', ...) answered with a date; else, for Office files,
 * the document properties' modified date, else their created date; null when none is known (the
 * upload then dates it).
 */

const DATE_QUESTION =
  /^\s*(date|date completed|completion date|date of completion|date submitted|submission date|last updated|last reviewed|as of)\s*:?\s*$/i
const ISO = /^\s*(\d{4})-(\d{2})-(\d{2})/
/** 'Oct 4, 2024', '4 October 2024'; not bare numbers (an Excel serial or 10/04/2024 is ambiguous). */
const WORDED = /^\s*(\d{1,2}\s+\p{L}{3,}\.?\s+\d{4}|\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4})\s*$/u

/** A plausible day: not in the future, not before 2000. */
function plausible(date: Date, now: Date) {
  return (
    !Number.isNaN(date.getTime()) &&
    date.getTime() <= now.getTime() + 86_400_000 &&
    date.getUTCFullYear() >= 2000
  )
}

function dayOf(text: string): Date | null {
  const iso = ISO.exec(text)
  if (iso) return new Date(`${iso[1]}-${iso[2]}-${iso[3]}T00:00:00Z`)
  if (WORDED.test(text)) {
    const parsed = new Date(`${text.trim()} UTC`)
    return Number.isNaN(parsed.getTime()) ? null : parsed
  }
  return null
}

/**
 * The date a questionnaire's own rows state: a question/answer pair asking the date, or a row
 * read as text whose first line is the date's label and a later line ('Answer: 2024-01-15')
 * holds it.
 */
export function statedInRows(
  passages: { text: string; qa?: { question: string; answer: string } | null }[],
  now = new Date(),
): Date | null {
  for (const passage of passages.slice(0, 400)) {
    const answers = passage.qa
      ? DATE_QUESTION.test(passage.qa.question)
        ? [passage.qa.answer]
        : []
      : (() => {
          const [label, ...rest] = passage.text.split('\n')
          if (!label || !DATE_QUESTION.test(label)) return []
          return rest.map((line) => line.replace(/^[^:]{1,40}:\s*/, ''))
        })()
    for (const answer of answers) {
      const day = dayOf(answer)
      if (day && plausible(day, now)) return day
    }
  }
  return null
}

/** An Office file's document properties: modified, else created. */
export async function propertiesDate(filePath: string, now = new Date()): Promise<Date | null> {
  try {
    const entry = unzipSync(new Uint8Array(await readFile(filePath)), {
      filter: (file) => file.name === 'docProps/core.xml',
    })['docProps/core.xml']
    if (!entry) return null
    const xml = strFromU8(entry)
    for (const name of ['modified', 'created']) {
      const found = new RegExp(`<dcterms:${name}[^>]*>([^<]+)<`).exec(xml)?.[1]
      const day = found ? dayOf(found) : null
      if (day && plausible(day, now)) return day
    }
    return null
  } catch {
    return null
  }
}
