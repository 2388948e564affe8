/**
 * The language a question is written in, from its function words: enough to tell the languages
 * questionnaires arrive in (English, German, French, Spanish, Italian, Dutch, Portuguese) apart,
 * so that a license with `multi_language` has answers written in the question's language, and one
 * without has them in English. A text with too few function words is of no known language.
 */

export interface Language {
  code: 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt'
  name: string
}

const WORDS: Record<Language['code'], { name: string; words: string }> = {
  en: {
    name: 'English',
    words:
      'the and of to is are do does did you your in for with that have has how what which who when where this these be been by on at or not any all from',
  },
  de: {
    name: 'German',
    words:
      'der die das und ist sind sie ihr ihre ihren werden wird wurde mit für von zu nicht ein eine einen haben hat wie auf dem den des im bei oder auch welche wer wann gibt es',
  },
  fr: {
    name: 'French',
    words:
      'le la les et de est sont vous votre vos des du une un pour avec dans que qui pas au aux sur par ce cette ces avez quels quelle comment être',
  },
  es: {
    name: 'Spanish',
    words:
      'el la los las y de es son usted su sus del una un para con en que se no por al como cuál cuáles tiene tienen está están este esta sobre',
  },
  it: {
    name: 'Italian',
    words:
      'il lo la gli le e di è sono voi vostro vostra della delle dei degli una un per con nel nella che non come avete quali sul sulla questo questa',
  },
  nl: {
    name: 'Dutch',
    words:
      'de het een en is zijn u uw van voor met in dat die niet hoe wat welke wordt worden heeft hebben op bij ook of deze',
  },
  pt: {
    name: 'Portuguese',
    words:
      'o a os as e de é são você seu sua seus suas do da dos das um uma para com em que não como qual quais tem têm está estão este esta pelo pela',
  },
}

const SETS = Object.entries(WORDS).map(([code, entry]) => ({
  code: code as Language['code'],
  name: entry.name,
  words: new Set(entry.words.split(' ')),
}))

/** The language of a text (a question, or several), or null when it cannot be told. */
export function detectLanguage(text: string): Language | null {
  const tokens = text.toLowerCase().match(/\p{L}+/gu) ?? []
  if (tokens.length < 3) return null
  let best: { code: Language['code']; name: string; hits: number } | null = null
  let second = 0
  for (const language of SETS) {
    let hits = 0
    for (const token of tokens) if (language.words.has(token)) hits += 1
    if (!best || hits > best.hits) {
      second = best?.hits ?? 0
      best = { code: language.code, name: language.name, hits }
    } else if (hits > second) second = hits
  }
  // a clear winner with at least two function words
  if (!best || best.hits < 2 || best.hits <= second) return null
  return { code: best.code, name: best.name }
}
