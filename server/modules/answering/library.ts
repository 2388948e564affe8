import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { Library, type LibraryEntry } from '../../answering/engine.ts'
import { leadingChoice } from '../../answering/text.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { upsertApprovedAnswer } from '../knowledge/approved.ts'
import { FRESHNESS_SQL } from '../knowledge/items.ts'
import { questionKey } from '../knowledge/service.ts'
import type { AnsweringDeps } from './shared.ts'
import { loadLibrary } from './store.ts'

/** At most this many groups are listed, conflicts first. */
const HEALTH_GROUPS = 200

/**
 * What an entry answers, for telling duplicates from conflicts: its Yes, No or N/A when it leads
 * with one, else its words (case, spacing and final punctuation aside). Two entries of a group with
 * different keys contradict each other: "Vendor Name: Acme Learning Ltd" and "Vendor Name:
 * Instructure" are a conflict, not a duplicate.
 */
const answerKey = (entry: LibraryEntry) =>
  leadingChoice(entry.dropdown ?? entry.answer) ??
  entry.answer
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,!]+$/, '')
    .trim()

/** When an entry's answer was given: a Q&A item's last review or rewrite, a file's own date. */
const datedAt = (entry: LibraryEntry) => entry.reviewedAt?.getTime() ?? Number.NaN

/** A group's entries, each row of a file once (a long row is read as several passages). */
const once = (members: LibraryEntry[]) => {
  const seen = new Set<string>()
  return members.filter((entry) => {
    if (entry.source !== 'file') return true
    const key = `${entry.fileId}\u001f${JSON.stringify(entry.location)}\u001f${entry.question}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** More than one entry of a conflict carries its newest date: none is the newer. */
const ties = (members: LibraryEntry[], newest: number) =>
  members.filter((entry) => datedAt(entry) === newest).length > 1

/**
 * The approved library seen from answers: saving an answer to it, and its health (duplicates, conflicts, stale entries).
 */
export function createLibraryOperations(deps: AnsweringDeps) {
  const { pool } = deps.database

  /** Adds an answer to the library as a Q&A item, or updates the item that asks the same question. */
  async function saveToLibrary(orgId: number, userId: number, answerId: number) {
    const { rows } = await pool.query<{
      question: string
      text: string
      choice: string | null
      name: string
    }>(
      `select qq.text as question, a.text, a.choice, q.name
         from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id and qq.deleted_at is null
         join questionnaires q on q.id = a.questionnaire_id
        where a.org_id = $1 and a.id = $2`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    const saved = await inTransaction(pool, (client) =>
      upsertApprovedAnswer(client, orgId, userId, {
        question: row.question,
        text: row.text,
        choice: row.choice,
        questionnaire: row.name,
      }),
    )
    if (!saved) throw apiError(400, QUESTIONNAIRE_TEXTS.emptyAnswer, { code: 'validation_error' })
    return saved
  }

  /**
   * Library upkeep: entries that ask the same question. Q&A items against every entry (the same
   * terms, or a match of 0.9 and more); rows of completed questionnaires against one another by
   * their question's words (files repeat questions, and comparing every row with every other would
   * not scale). A group whose entries answer differently (Yes and No, or other words: `answerKey`)
   * is a conflict, its newest answer first and marked; otherwise the copies are duplicates. Groups of file rows alone are listed only when they conflict: a question answered
   * alike in several completed questionnaires is expected.
   */
  async function libraryHealth(orgId: number) {
    const [loaded, stamps, tallies] = await Promise.all([
      loadLibrary(deps.database, orgId),
      pool.query<{ id: string; updated_at: Date }>(
        'select id, updated_at from kb_qa_items where org_id = $1',
        [orgId],
      ),
      pool.query<{ stale: number; due: number; source_changed: number }>(
        `select
           (select count(*)::int from kb_qa_items i join organizations o on o.id = i.org_id
             where i.org_id = $1 and ${FRESHNESS_SQL.stale}) as stale,
           (select count(*)::int from kb_qa_items i join organizations o on o.id = i.org_id
             where i.org_id = $1 and ${FRESHNESS_SQL.due}) as due,
           (select count(*)::int from questionnaire_answers a
             where a.org_id = $1 and a.source_change is not null
               and a.status in ('generated', 'edited', 'approved')) as source_changed`,
        [orgId],
      ),
    ])
    const updated = new Map(stamps.rows.map((row) => [Number(row.id), row.updated_at]))
    const entries = loaded.entries
    const parent = entries.map((_, index) => index)
    const find = (index: number): number => {
      let root = index
      while (parent[root] !== root) root = parent[root] as number
      parent[index] = root
      return root
    }
    const join = (a: number, b: number) => {
      parent[find(a)] = find(b)
    }
    // file rows that ask the same question
    const byKey = new Map<string, number>()
    entries.forEach((entry, index) => {
      const key = questionKey(entry.question)
      const first = byKey.get(key)
      if (first === undefined) byKey.set(key, index)
      else join(index, first)
    })
    // Q&A items against every entry, in a library where each takes part whatever it answers
    const indexOf = new Map<LibraryEntry, number>()
    const library = new Library(
      entries.map((entry, index) => {
        const copy = { ...entry, answer: `${index}\u001f${entry.answer}` }
        indexOf.set(copy, index)
        return copy
      }),
    )
    entries.forEach((entry, index) => {
      if (entry.source !== 'qa') return
      for (const match of library.match(entry.question, 6)) {
        const other = indexOf.get(match.entry)
        if (match.score >= 0.9 && other !== undefined && other !== index) join(index, other)
      }
    })
    const groups = new Map<number, number[]>()
    entries.forEach((_, index) => {
      const root = find(index)
      groups.set(root, [...(groups.get(root) ?? []), index])
    })
    const listed = [...groups.values()]
      .map((group) => once(group.map((index) => entries[index] as LibraryEntry)))
      .filter((members) => members.length > 1)
      .map((members) => {
        const conflict = new Set(members.map(answerKey)).size > 1
        // a conflict says which answer is the newer: its entries newest first, the first marked
        const dates = members.map(datedAt).filter((time) => !Number.isNaN(time))
        const newest = conflict && dates.length ? Math.max(...dates) : Number.NaN
        if (conflict) members.sort((a, b) => (datedAt(b) || 0) - (datedAt(a) || 0))
        return {
          kind: conflict ? ('conflict' as const) : ('duplicate' as const),
          items: members.map((entry, index) => ({
            id: entry.id,
            source: entry.source === 'qa' ? ('qa' as const) : ('file' as const),
            question: entry.question,
            answer: entry.answer,
            dropdown_value: entry.dropdown,
            updated_at:
              entry.source === 'qa' ? (updated.get(entry.id)?.toISOString() ?? null) : null,
            file_id: entry.fileId,
            file_name: entry.source === 'file' ? entry.title : null,
            dated_at: entry.reviewedAt?.toISOString() ?? null,
            newest: index === 0 && datedAt(entry) === newest && !ties(members, newest),
          })),
        }
      })
      .filter(
        (group) => group.kind === 'conflict' || group.items.some((item) => item.source === 'qa'),
      )
      .sort((a, b) => Number(b.kind === 'conflict') - Number(a.kind === 'conflict'))
    const conflicts = listed.filter((group) => group.kind === 'conflict').length
    const tally = tallies.rows[0]
    return {
      groups: listed.slice(0, HEALTH_GROUPS),
      counts: {
        stale: tally?.stale ?? 0,
        due: tally?.due ?? 0,
        source_changed: tally?.source_changed ?? 0,
        conflicts,
      },
    }
  }

  return { saveToLibrary, libraryHealth }
}

export type LibraryOperations = ReturnType<typeof createLibraryOperations>
