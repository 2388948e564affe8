import { z } from 'zod'
import type { Logger } from '../logger.ts'
import { kindCeiling } from './calibration.ts'
import { partsOf } from './parts.ts'
import { PARTLY_STATED_CAP, PARTLY_STATED_PREFIX } from './qualifiers.ts'
import { leadingChoice } from './text.ts'
import { THIRD_PARTY_PREFIX } from './third-party.ts'
import type { AnswerPart, Candidate, EngineAnswer, QuestionInput } from './types.ts'
import { listOf } from './wording.ts'

/**
 * The language model as a second reader of a Yes from document sentences (issue 27): given the
 * question's parts and the cited sentences, it says which numbered sentence states which numbered
 * part and quotes the words that do. A judgement counts only when its quote is verbatim in the
 * sentence it names. A part is stated when the rules said so and the model, quoting, agrees: the
 * model can take a part away, never add one, so the rules stay the floor of every answer.
 */

export const entailmentSchema = z.object({
  parts: z.array(
    z.object({
      part: z.number().int().describe('The number of the part.'),
      sentence: z
        .number()
        .int()
        .nullable()
        .describe('The number of the sentence that states the part, or null when none does.'),
      quote: z
        .string()
        .describe('The words of that sentence that state the part, copied exactly; empty if none.'),
    }),
  ),
})
export type EntailmentOutput = z.infer<typeof entailmentSchema>

/** A structured call to the model (the engine's, with its budget, limiter and canary). */
export type AskModel = <T>(schema: z.ZodType<T>, prompt: string) => Promise<T>

/** Fewest words and characters of a quote that is not the whole sentence. */
const MIN_QUOTE_WORDS = 2
const MIN_QUOTE_CHARS = 8

/** Whitespace, curly quotes and dashes as one form: what a model may change copying a quote. */
const normalised = (text: string) =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()

const WORD = /[\p{L}\p{N}]/u

/**
 * Whether a quote is the sentence, or words of it (whole words, at least MIN_QUOTE_WORDS and
 * MIN_QUOTE_CHARS), copied verbatim but for whitespace, curly quotes and dashes. Quotation marks
 * or an ellipsis around the quote are not part of it.
 */
export function quotedFrom(quote: string, sentence: string): boolean {
  const text = normalised(sentence)
  const words = normalised(quote)
    .replace(/^["'\s]+|["'\s]+$/g, '')
    .replace(/^(?:\.\.\.|…)\s*|\s*(?:\.\.\.|…)$/g, '')
  if (!words) return false
  if (words === text) return true
  if (words.length < MIN_QUOTE_CHARS || words.split(' ').length < MIN_QUOTE_WORDS) return false
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    const before = text[at - 1]
    const after = text[at + words.length]
    // whole words only: 'automat' is not quoted from 'automatically'
    const starts = !before || !WORD.test(before) || !WORD.test(words[0] as string)
    const ends = !after || !WORD.test(after) || !WORD.test(words[words.length - 1] as string)
    if (starts && ends) return true
  }
  return false
}

const attribute = (text: string) => text.replace(/["<>]/g, "'")

/** The task: parts and sentences numbered, the question and sentences as data between tags. */
export function entailmentPrompt(question: string, parts: AnswerPart[], sentences: string[]) {
  return [
    'Task: the question below asks for several parts. For each numbered part, say which numbered',
    'sentence states that part, and copy the words of that sentence that state it exactly as they',
    'are written. A sentence states a part only if it says so itself: a sentence about something',
    'else, or one that merely does not contradict the part, does not state it. When no sentence',
    'states a part, give sentence null and an empty quote. Give one entry per part, as JSON:',
    // the shape in words too: an endpoint without schema-constrained output is asked for JSON only
    '{"parts": [{"part": <number of the part>, "sentence": <number of the sentence, or null>,',
    '"quote": "<the words of the sentence, copied>"}]}',
    '',
    `<question>\n${question}\n</question>`,
    '',
    parts
      .map(
        (part, index) =>
          `<part n="${index + 1}" kind="${part.kind}">${attribute(part.label)}</part>`,
      )
      .join('\n'),
    '',
    sentences
      .map((sentence, index) => `<sentence n="${index + 1}">\n${sentence}\n</sentence>`)
      .join('\n'),
  ].join('\n')
}

/**
 * The question's parts as the rules and the model read them together: a part keeps the sentence
 * the rules gave it only when the model names a sentence that states it with a verbatim quote,
 * and that sentence is the rules' own or one the rules read as stating the part too. Every other
 * part has no sentence (not stated), whatever the model says.
 */
export async function judgeParts(
  ask: AskModel,
  question: QuestionInput,
  parts: AnswerPart[],
  sentences: string[],
): Promise<AnswerPart[]> {
  if (!parts.some((part) => part.sentence !== null) || !sentences.length)
    return parts.map((part) => ({ ...part, sentence: null }))
  const output = await ask(entailmentSchema, entailmentPrompt(question.text, parts, sentences))
  // what the rules read in each sentence alone, part by part (the same parts, in the same order)
  const byRules = sentences.map((sentence) => partsOf(question.text, [sentence], question.previous))
  const agrees = (index: number, chosen: number) => {
    const part = parts[index] as AnswerPart
    if (part.sentence !== null && normalised(part.sentence) === normalised(sentences[chosen] ?? ''))
      return true
    const read = byRules[chosen]?.[index]
    return read?.label === part.label && read.kind === part.kind && read.sentence !== null
  }
  return parts.map((part, index) => {
    if (part.sentence === null) return part
    const entailed = output.parts.some(
      (judged) =>
        judged.part === index + 1 &&
        judged.sentence !== null &&
        judged.sentence >= 1 &&
        judged.sentence <= sentences.length &&
        quotedFrom(judged.quote, sentences[judged.sentence - 1] as string) &&
        agrees(index, judged.sentence - 1),
    )
    return entailed ? part : { ...part, sentence: null }
  })
}

/** The sentences an answer from documents cites (what its parts were read from). */
export const citedSentences = (candidate: Candidate) =>
  candidate.citations
    .filter((citation) => citation.kind === 'document')
    .map((citation) => citation.snippet)

/** Whether the model is asked about a candidate: a Yes from document sentences, read by parts. */
export const checkable = (candidate: Candidate | undefined): candidate is Candidate =>
  Boolean(
    candidate &&
      !candidate.withheld &&
      candidate.choice &&
      leadingChoice(candidate.choice) === 'yes' &&
      candidate.parts?.some((part) => part.sentence !== null) &&
      citedSentences(candidate).length,
  )

/**
 * A candidate after the model's reading (`judged`: its parts as judgeParts gives them). Every part
 * the rules stated still stated: the candidate unchanged. A practice no longer stated: no answer,
 * the sentences cited for the reviewer. Anything else asked (a qualifier, how often, tested,
 * documented) no longer stated: a Yes that is partly stated, never High, saying which part.
 */
export function afterEntailment(candidate: Candidate, judged: AnswerPart[]): Candidate {
  const parts = candidate.parts ?? []
  const lost = parts.filter(
    (part, index) => part.sentence !== null && judged[index]?.sentence === null,
  )
  if (!lost.length) return candidate
  const labels = (list: AnswerPart[]) => listOf(list.map((part) => part.label))
  const practices = lost.filter((part) => part.kind === 'practice')
  if (practices.length)
    return {
      text: '',
      choice: null,
      confidence: 0,
      citations: candidate.citations,
      withheld: `No answer: the language model finds no quoted sentence that states ${labels(practices)}. The sentences read as stating it are cited: check them and write the answer.`,
    }
  // another party's sentence stays a lead, its note naming the party
  if (candidate.reason?.startsWith(THIRD_PARTY_PREFIX))
    return {
      ...candidate,
      confidence: Math.min(candidate.confidence, PARTLY_STATED_CAP),
      parts: judged,
    }
  const named = parts.filter((part) => part.kind === 'practice')
  const unstatedByRules = parts.filter((part) => part.kind !== 'practice' && !part.sentence)
  return {
    ...candidate,
    // partly stated: no more than such answers were measured right
    confidence: Math.min(candidate.confidence, PARTLY_STATED_CAP, kindCeiling('partial')),
    reason: `${PARTLY_STATED_PREFIX} the documents state ${named.length ? labels(named) : 'the practice asked'}; ${unstatedByRules.length ? `no sentence states: ${labels(unstatedByRules)}; ` : ''}the language model finds no quoted sentence that states: ${labels(lost)}. Check before approving.`,
    parts: judged,
  }
}

/**
 * The rule engine's answer checked by the model: null when there is nothing to check (its first
 * candidate is not a Yes read by parts), so the caller answers as it would without. When the
 * model withdraws the practice, only the rules' candidates without a choice follow the withheld
 * one (quotes for the reviewer): no other Yes or No stands in for the one withdrawn. A failed call
 * (an error, the budget used up) leaves the rules' answer as it is.
 */
export async function checkedByModel(
  answer: EngineAnswer,
  entails: (parts: AnswerPart[], sentences: string[]) => Promise<AnswerPart[]>,
  log: Logger,
): Promise<EngineAnswer | null> {
  const [first, ...rest] = answer.candidates
  if (!checkable(first)) return null
  let judged: AnswerPart[]
  try {
    judged = await entails(first.parts ?? [], citedSentences(first))
  } catch (error) {
    log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'entailment check failed; the rules’ answer stands',
    )
    return answer
  }
  const checked = afterEntailment(first, judged)
  if (checked.withheld)
    return { candidates: [checked, ...rest.filter((candidate) => !candidate.choice)], note: null }
  return { candidates: [checked, ...rest], note: answer.note }
}
