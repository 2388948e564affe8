import { terms } from './text.ts'

/** Practices, lists and a question's parts in words, for the notes the reviewer reads. */

/** Practices as words: 'encryption at rest and key management'. */
export const practiceNames = (ids: string[]) => listOf(ids.map((id) => id.replaceAll('-', ' ')))

export const listOf = (items: string[]) =>
  items.length > 1
    ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
    : (items[0] ?? '')

/** Parts of a question's scope (practiceScope's labels) in the question's own words. */
export function scopeWords(question: string, parts: string[]): string[] {
  const wordOf = new Map<string, string>()
  // every stem of a word stands for the whole word ('risk-based' for 'risk' and 'bas'): a stem is
  // never shown as if it were a word
  for (const word of question.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [])
    for (const term of terms(word)) if (!wordOf.has(term)) wordOf.set(term, word)
  const labels: Record<string, string> = {
    documented: 'documented',
    periodic: 'periodically',
    day: 'daily',
    week: 'weekly',
    month: 'monthly',
    quarter: 'quarterly',
    annual: 'annually',
    automated: 'automated',
    measured: 'measured by metrics',
    independent: 'independent',
    protected: 'protected against change',
  }
  return parts.map((part) => labels[part] ?? wordOf.get(part) ?? part)
}
