import type { Citation } from '../../../contract/questionnaires.ts'
import { citationsOf, passageCitation } from '../../answering/cite.ts'
import { type Library, REUSE_FLOOR } from '../../answering/library.ts'
import { supportingSentences, unsaidParts } from '../../answering/support.ts'
import { leadingChoice, sentences } from '../../answering/text.ts'
import type { Candidate, EngineAnswer, PassageHit, QuestionInput } from '../../answering/types.ts'
import { askedFigure, figureSentences, givesFigure, noFigureText } from './figures.ts'

/**
 * A chat answer in words (issue 30): the direct answer first (Yes, No, or what is stated), then the
 * sentences that support it from every kind of source, each with its number (documents first
 * where they state it, then the organisation's own answers), then, plainly, what of the question
 * the sources do not say. Nothing is claimed that the engine did not answer: without an answer it
 * says what it looked for, and cites the nearest passages as leads.
 */

/** A conversation's name from its first question. */
export const titleFrom = (question: string) => {
  const line = question.replace(/\s+/g, ' ').trim()
  return line.length <= 60 ? line : `${line.slice(0, 57).replace(/\s+\S*$/, '')}...`
}

const CHOICES = { yes: 'Yes', no: 'No', na: 'N/A' } as const
/** Most of the organisation's answers quoted beside the documents, and most sources in all. */
const MOST_ROWS = 3
const MOST_SOURCES = 8

interface Line {
  text: string
  citation: Citation
}

const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim()
const keyOf = (citation: Citation) =>
  `${citation.source}\u001f${citation.id}\u001f${citation.location?.row ?? ''}\u001f${fold(citation.snippet)}`
/** Where a source is: its document (and page) or row, whatever it quotes. */
const placeOf = (citation: Citation) =>
  `${citation.source}\u001f${citation.id}\u001f${citation.location?.page ?? ''}\u001f${citation.location?.sheet ?? ''}\u001f${citation.location?.row ?? ''}`
const ended = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`)

/**
 * An answer of the organisation's as a line: 'Your answer to “Do you encrypt backups?”: Yes.' (to
 * its own people), 'Our answer to ...' (to a visitor of its trust centre).
 */
function rowLine(citation: Citation, voice: Voice): Line {
  const [asked, ...answer] = citation.snippet.split(' — ')
  const text = answer.length
    ? `${voice === 'public' ? 'Our' : 'Your'} answer to “${(asked ?? '').trim()}”: ${ended(answer.join(' — ').trim())}`
    : ended(citation.snippet)
  return { text, citation }
}

/** Who reads the answer: the organisation's own people, or a visitor of its trust centre. */
type Voice = 'staff' | 'public'

/** Whether a candidate's text is quoted from its sources (the rules'), not written (a model's). */
function quoted(candidate: Candidate) {
  const cited = candidate.citations.map((citation) => fold(citation.snippet))
  return sentences(candidate.text).every((sentence) => {
    const start = fold(sentence)
      .replace(/^(?:yes|no)\b[\s,.;:–—-]*/, '')
      .slice(0, 80)
    return cited.some((snippet) => snippet.includes(start))
  })
}

/** 'the carrier or the coverage limit'. */
const orList = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? '')

export function composeAnswer(input: {
  question: QuestionInput
  answer: EngineAnswer
  /** The passages found for the question, whose documents' sentences may support the answer. */
  passages: PassageHit[]
  library: Library
  /** Whether a language model writes answers (without one, every answer is quoted). */
  model: boolean
  /** Who reads it (issue 40): the organisation's people by default. */
  voice?: Voice
}): { content: string; citations: Citation[] } {
  const { question, answer, library } = input
  // a figure asked for (an RTO, how often, which standard) is given, or said to be undocumented
  const figure = askedFigure(question.text)
  const figureLines = figure ? figureSentences(question.text, input.passages) : []
  const best = answer.candidates.find(
    (candidate) => !candidate.withheld && (candidate.text.trim() || candidate.choice),
  )
  if (!best && !figureLines.length) {
    const leads = answer.candidates.flatMap((candidate) => candidate.citations).slice(0, 3)
    const looked = `I looked for “${titleFrom(question.text)}” in ${input.voice === 'public' ? 'the published documents and answers' : 'your documents, knowledge base and approved answers'} and found nothing that states it.`
    const said = leads.length
      ? `${looked} The nearest passages are cited below; none of them says it.`
      : looked
    return {
      content: figure ? `${noFigureText(figure, input.voice)} ${said}` : said,
      citations: leads,
    }
  }
  if (!best) {
    // no answer of the engine's, but a document gives the figure: its sentences are the answer
    const citations = figureLines.map((line) => passageCitation(line.passage, line.sentence))
    return {
      content: figureLines.map((line, i) => `${ended(line.sentence)} [${i + 1}]`).join('\n'),
      citations,
    }
  }
  const choice = best.choice ? leadingChoice(best.choice) : null
  // a Yes or No quoted from its sources opens with the choice, and its sources follow as lines;
  // a text (what is stated, or a model's answer) opens with itself and cites its sources
  const written = input.model && !quoted(best)
  const opensWithText = !choice || written
  const openingText = opensWithText
    ? best.text
        .trim()
        .replace(choice ? /^\s*(?:yes|no|n\/?a)\b[\s,.;:–—-]*/i : /^$/, '')
        .replace(/^\p{Ll}/u, (first) => first.toUpperCase())
    : ''
  const opening = [choice ? `${CHOICES[choice]}.` : '', openingText].filter(Boolean).join(' ')
  const openingCitations = opensWithText ? best.citations : []

  const said = new Set<string>(sentences(openingText).map(fold))
  // the sources of a quoted opening are in it already; those of a written one are quoted below
  const taken = new Set(written ? [] : openingCitations.map(keyOf))
  const documents: Line[] = []
  const rows: Line[] = []
  const add = (line: Line) => {
    const key = keyOf(line.citation)
    if (taken.has(key) || said.has(fold(line.text))) return
    taken.add(key)
    said.add(fold(line.text))
    if (line.citation.kind === 'library' || line.citation.source === 'qa') {
      if (rows.length < MOST_ROWS) rows.push(rowLine(line.citation, input.voice ?? 'staff'))
    } else documents.push(line)
  }
  // the sentences that give the figure asked first, then the answer's own sources, then the
  // documents' sentences that state it, then the organisation's answers that give the same answer
  for (const line of figureLines)
    add({ text: line.sentence, citation: passageCitation(line.passage, line.sentence) })
  if (!opensWithText)
    for (const citation of best.citations) add({ text: citation.snippet, citation })
  const side = choice === 'yes' || choice === 'no' ? choice : null
  for (const { sentence, passage } of supportingSentences(
    question,
    input.passages,
    library.space,
    side,
  ))
    add({ text: sentence, citation: passageCitation(passage, sentence) })
  for (const match of library.match(question.text)) {
    if (match.score < REUSE_FLOOR || rows.length >= MOST_ROWS) break
    const own = leadingChoice(match.entry.dropdown ?? match.entry.answer)
    if (choice ? own !== choice : !match.entry.answer.trim()) continue
    for (const citation of citationsOf(match.entry)) add({ text: citation.snippet, citation })
  }

  // numbered in the order shown: the documents first, then the answers, then the opening's own
  // (a source the opening cites and a line quotes has the line's number)
  const lines = [...documents, ...rows]
  const citations: Citation[] = []
  const numberOf = new Map<string, number>()
  for (const citation of lines.map((line) => line.citation)) {
    if (citations.length >= MOST_SOURCES) break
    citations.push(citation)
    numberOf.set(keyOf(citation), citations.length)
    if (!numberOf.has(placeOf(citation))) numberOf.set(placeOf(citation), citations.length)
  }
  for (const citation of openingCitations) {
    if (numberOf.has(placeOf(citation)) || citations.length >= MOST_SOURCES) continue
    citations.push(citation)
    numberOf.set(placeOf(citation), citations.length)
  }
  const numbered = (citation: Citation) =>
    numberOf.get(keyOf(citation)) ?? numberOf.get(placeOf(citation))
  const marks = (list: Citation[]) =>
    [...new Set(list.map(numbered))]
      .filter((n): n is number => n !== undefined)
      .sort((a, b) => a - b)
      .map((n) => `[${n}]`)
      .join('')
  const markOf = (list: Citation[]) => (marks(list) ? ` ${marks(list)}` : '')

  const shown = lines.filter((line) => numberOf.has(keyOf(line.citation)))
  const unsaid = unsaidParts(
    question,
    [openingText, ...shown.map((line) => line.text)],
    best.parts
      ? shown.filter((line) => line.citation.kind === 'document').map((l) => l.text)
      : null,
  )
  const given = !figure || givesFigure(openingText) || shown.some((line) => givesFigure(line.text))
  // where the sources' words fall short of the question, the line below says what they lack;
  // where they seem to say all of it and yet give no figure (a definition, a promise), it is
  // said first
  if (!given && !unsaid.length) {
    const context = [
      ...(openingText ? [`${ended(openingText)}${markOf(openingCitations)}`] : []),
      ...shown.map((line) => `${ended(line.text)}${markOf([line.citation])}`),
    ]
    return {
      content: [
        noFigureText(figure, input.voice),
        context.length ? `What they say of it:\n${context.join('\n')}` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
      citations,
    }
  }
  const paragraphs = [
    `${opening}${markOf(openingCitations)}`,
    shown.map((line) => `${ended(line.text)}${markOf([line.citation])}`).join('\n'),
    unsaid.length ? `The sources do not state ${orList(unsaid)}.` : '',
  ]
  return { content: paragraphs.filter(Boolean).join('\n\n'), citations }
}
