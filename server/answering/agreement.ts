import { AGED_CEILING, conflictReason, newestOf } from './age.ts'
import { MAJORITY, PEER_WINDOW, SAME_QUESTION } from './library.ts'
import { libraryCandidate } from './library-answer.ts'
import { leadingChoice } from './text.ts'
import { type Candidate, type LibraryEntry, type QuestionInput, sourceOf } from './types.ts'

/**
 * How the records that answer the same question agree (kind `library`): the answer most of them
 * give goes first and its confidence says how far they agree (`agreement`); when they are split
 * below MAJORITY the engine declines to choose ('Your records disagree') and offers one candidate
 * per side; where the library's own approved answers disagree, the one reviewed last is used,
 * never High, and its note says so (issue 28).
 */

type Match = { entry: LibraryEntry; score: number }

export const choiceOf = (entry: LibraryEntry) => leadingChoice(entry.dropdown ?? entry.answer)

const CHOICE_LABEL = { yes: 'Yes', no: 'No', na: 'N/A' } as const

/**
 * The library matches that ask the same question, one per source, and how their Yes/No/N/A
 * answers split. The winner is the commonest answer (ties: the best match's).
 */
function vote(strong: { entry: LibraryEntry; score: number }[]) {
  const top = strong[0]
  if (!top) return null
  const bySource = new Map<string, { entry: LibraryEntry; score: number }>()
  for (const match of strong) {
    if (match.score < top.score - PEER_WINDOW && match.score < SAME_QUESTION) continue
    const key = sourceOf(match.entry)
    if (!bySource.has(key)) bySource.set(key, match)
  }
  const answering = [...bySource.values()].filter((match) => choiceOf(match.entry))
  // approved library answers are the organisation's current word; completed questionnaires are
  // its history: where the library answers the question, the library decides (a reviewer who
  // settled a split and saved the answer is not asked again)
  const curated = answering.filter((match) => match.entry.source === 'qa')
  if (answering.length < 2) return null
  // the library's own answers disagree: the one reviewed last is its current word (issue 28)
  const newest =
    new Set(curated.map((match) => choiceOf(match.entry))).size > 1 ? newestOf(curated) : null
  if (newest) {
    const winner = choiceOf(newest.entry) as string
    const tally = new Map<string, number>()
    for (const match of answering) {
      const choice = choiceOf(match.entry) as string
      tally.set(choice, (tally.get(choice) ?? 0) + 1)
    }
    const label = (entry: LibraryEntry) => CHOICE_LABEL[choiceOf(entry) as 'yes']
    return {
      peers: [newest],
      winner,
      share: 1,
      counts: [{ choice: winner, count: 1 }],
      tally,
      answering: answering.length,
      conflict: {
        entry: newest.entry,
        reason: conflictReason(
          { entry: newest.entry, choice: label(newest.entry) },
          curated
            .filter((match) => choiceOf(match.entry) !== winner)
            .map((match) => ({ entry: match.entry, choice: label(match.entry) })),
        ),
      },
    }
  }
  const peers = curated.length ? curated : answering
  const counts = new Map<string, { count: number; first: number }>()
  peers.forEach((match, index) => {
    const key = choiceOf(match.entry) as string
    const current = counts.get(key) ?? { count: 0, first: index }
    current.count += 1
    counts.set(key, current)
  })
  const ranked = [...counts.entries()].sort(
    (a, b) => b[1].count - a[1].count || a[1].first - b[1].first,
  )
  const [winner] = ranked
  if (!winner) return null
  const tally = new Map<string, number>()
  for (const match of answering) {
    const choice = choiceOf(match.entry) as string
    tally.set(choice, (tally.get(choice) ?? 0) + 1)
  }
  return {
    peers,
    winner: winner[0],
    share: winner[1].count / peers.length,
    counts: ranked.map(([choice, { count }]) => ({ choice, count })),
    /** Every record that answers, curated or not: how many give each answer. */
    tally,
    answering: answering.length,
    conflict: null as { entry: LibraryEntry; reason: string } | null,
  }
}

/**
 * The confidence of an answer given by this share of the records that answer the same question
 * (s^k / (s^k + (1 - s)^k); 0.5 stays 0.5, a majority counts for more than its face value and a
 * dissent for less). On the evaluation runs (each HECVAT Lite answered from the other products'
 * files) 3 of 4 in agreement were right 87% of the time over five products (39 of 45) but 56% on
 * one of them: k = 1.15 puts 3 of 4 at 0.78, the top of the medium band, so that records that
 * disagree are still shown as worth a look; 7 of 8 reach high (0.90), a lone dissent 0.1-0.2.
 */
export function agreement(share: number): number {
  const k = 1.15
  const agree = share ** k
  return agree / (agree + (1 - share) ** k)
}

/**
 * The strong matches in the order they are offered (the winning answer first, an approved library
 * answer before a questionnaire's, the library's newest where its answers disagree), with the
 * vote, and the withheld candidate when the records are split: they disagree, the reviewer
 * chooses.
 */
export function byAgreement(question: QuestionInput, matches: Match[]) {
  let strong = matches
  let withheld: Candidate | null = null
  const split = vote(strong)
  if (split) {
    // the winning answer first, an approved library answer before a questionnaire's
    const chosen = strong
      .filter((match) => choiceOf(match.entry) === split.winner)
      .sort((a, b) => Number(b.entry.source === 'qa') - Number(a.entry.source === 'qa'))
      // the library's newest answer where its answers disagree
      .sort(
        (a, b) =>
          Number(b.entry === split.conflict?.entry) - Number(a.entry === split.conflict?.entry),
      )
    strong = [...chosen, ...strong.filter((match) => !chosen.includes(match))]
  }
  if (split && split.counts.length > 1) {
    if (split.share < MAJORITY) {
      const opposing = split.counts.map(({ choice }) =>
        strong.find((match) => choiceOf(match.entry) === choice),
      )
      const sides = split.counts
        .map(({ choice, count }) => `${count} answer ${CHOICE_LABEL[choice as 'yes']}`)
        .join(', ')
      withheld = {
        text: '',
        choice: null,
        confidence: 0,
        withheld: `Your records disagree: of ${split.peers.length} that answer this question, ${sides}. Choose the candidate that is true for this questionnaire, or write the answer.`,
        citations: split.peers
          .slice(0, 6)
          .flatMap((match) => libraryCandidate(question, match)?.citations ?? []),
      }
      // one candidate per side, best match first
      strong = [...opposing.filter((match): match is Match => Boolean(match)), ...strong]
    }
  }
  return { split, strong, withheld }
}

/**
 * A library candidate with the agreement of the records that hold the same question: the winner
 * its share of the votes, any other answer its share of all the records that answer; the newest
 * of the library's disagreeing answers is used, never High, and it says so.
 */
export function withAgreement(
  candidate: Candidate,
  match: Match,
  split: ReturnType<typeof vote>,
): Candidate {
  const mine = split ? choiceOf(match.entry) : null
  if (split && mine) {
    const share =
      mine === split.winner ? split.share : (split.tally.get(mine) ?? 0) / split.answering
    if (share < 1) candidate.confidence = Math.min(candidate.confidence, agreement(share))
  }
  if (split?.conflict?.entry === match.entry) {
    candidate.reason = split.conflict.reason
    candidate.ceiling = Math.min(candidate.ceiling ?? 1, AGED_CEILING)
  }
  return candidate
}
