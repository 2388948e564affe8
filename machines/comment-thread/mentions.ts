import type { Person } from '../../contract/collaboration.ts'

/**
 * The text side of `@` mentions: a comment is plain text in which a mention reads "@Name"; the
 * ids of the people mentioned travel beside it. These helpers find the "@name" being typed, put a
 * chosen person's "@Name" into the text, keep only the mentions still written, and cut a comment
 * into plain pieces and mentions for showing.
 */

export interface MentionRef {
  id: number
  name: string
}

/** The longest name fragment looked up after an "@". */
const MAX_QUERY = 40
/** How many people the suggestions list at most. */
export const MAX_SUGGESTIONS = 6

/** The "@name" being typed at the caret: where its "@" is and what follows it, else null. */
export function mentionAt(body: string, caret: number): { start: number; query: string } | null {
  const before = body.slice(0, caret)
  const start = before.lastIndexOf('@')
  if (start < 0) return null
  // an "@" inside a word (an email address) starts no mention
  if (start > 0 && !/\s/.test(before[start - 1] ?? '')) return null
  const query = before.slice(start + 1)
  if (query.length > MAX_QUERY || /[\n@]/.test(query) || /^\s/.test(query)) return null
  return { start, query }
}

/**
 * The people whose name (or one of its words) or email starts with what was typed. A space after
 * a whole name ends the look-up: "@Ada Lovelace " is a mention written, not one being typed.
 */
export function matchPeople(people: readonly Person[], query: string): Person[] {
  const typed = query.toLowerCase()
  return people
    .filter((person) => {
      const name = person.name.toLowerCase()
      return (
        name.startsWith(typed) ||
        name.split(/\s+/).some((word) => word.startsWith(typed)) ||
        person.email.toLowerCase().startsWith(typed)
      )
    })
    .slice(0, MAX_SUGGESTIONS)
}

/** The text with "@Name " in place of the "@name" typed from `start` to the caret. */
export function insertMention(body: string, start: number, caret: number, name: string) {
  const inserted = `@${name} `
  const rest = body.slice(caret).replace(/^ /, '')
  return { body: body.slice(0, start) + inserted + rest, caret: start + inserted.length }
}

/** The mentions whose "@Name" is still in the text, each person once. */
export function keptMentions(body: string, mentions: readonly MentionRef[]): MentionRef[] {
  const seen = new Set<number>()
  return mentions.filter((mention) => {
    if (seen.has(mention.id) || !body.includes(`@${mention.name}`)) return false
    seen.add(mention.id)
    return true
  })
}

export interface TextPiece {
  text: string
  mention: boolean
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A comment's text cut at each "@Name" of the people it mentions: pieces to show as text. */
export function piecesOf(body: string, names: readonly string[]): TextPiece[] {
  const known = [...new Set(names.filter((name) => name !== ''))].sort(
    (a, b) => b.length - a.length,
  )
  if (!known.length) return body ? [{ text: body, mention: false }] : []
  const pattern = new RegExp(`(${known.map((name) => `@${literal(name)}`).join('|')})`)
  return body
    .split(pattern)
    .map((text, index) => ({ text, mention: index % 2 === 1 }))
    .filter((piece) => piece.text !== '')
}
