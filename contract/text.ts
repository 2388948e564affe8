import * as z from 'zod/mini'

/**
 * Text a user types into a search box, a filter or a tag (issue 14 fix 7). Every such string
 * searches, whatever its punctuation, quotes or emoji, with two exceptions: a NUL character, which
 * PostgreSQL text cannot hold, is refused in plain words; a lone UTF-16 surrogate half, which no
 * encoding can hold, becomes U+FFFD (the replacement character), as any URL or UTF-8 encoder does.
 */
export const TEXT_INPUT_TEXTS = {
  nul: 'The text cannot contain a NUL character',
} as const

/** The text with any lone surrogate half replaced by U+FFFD. */
export const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed())

/** The checks every typed text runs before its own: made well formed, and no NUL. */
export const typedTextChecks = () => [
  z.overwrite(wellFormed),
  z.refine<string>((text) => !text.includes('\u0000'), TEXT_INPUT_TEXTS.nul),
]

/** A search or filter string of at most `max` characters. */
export const searchTextSchema = (max: number) =>
  z.string().check(...typedTextChecks(), z.maxLength(max))
