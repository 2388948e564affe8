/**
 * Builds tsquery text from lexemes, never from what a user typed (issue 14 fix 7): the words of any
 * text are first reduced by to_tsvector, and each lexeme is then quoted here. A lexeme can hold a
 * quote or a backslash (a URL path such as /a'b), so both are doubled inside its quotes, as the
 * tsquery syntax asks; anything else (parentheses, &, |, !, :*) is plain text inside the quotes.
 */
export const tsLexeme = (lexeme: string) => `'${lexeme.replace(/['\\]/g, (m) => m + m)}'`

/** The tsquery that matches nothing: text with no searchable words (`(`, `it's`, an emoji). */
export const EMPTY_TSQUERY = ''
