import { confidenceBand } from '../../../contract/answers.ts'
import { ERROR_CODES, LICENSE_LIMIT } from '../../../contract/errors.ts'
import { fillText } from '../../../contract/knowledge.ts'
import {
  optionFor,
  optionsNamed,
  PORTAL_TEXTS,
  type PortalAnswer,
  type PortalField,
  type PortalFilledRequest,
  type PortalReadRequest,
  type PortalReadResponse,
  portalAddress,
} from '../../../contract/portal.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { type AuditBy, writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import { limitOf } from '../account/license.ts'
import { guessProduct } from '../products/service.ts'

/**
 * Questionnaires that arrive as web forms (issue 42). A portal page's fields, as the extension's
 * reader found them, are kept as a questionnaire of kind `portal`, found again by the page's
 * address: new fields are added after the others (a wizard's pages in the order they were read),
 * reworded ones drafted afresh, and none is dropped (the page a person moved on from still
 * counts). Every open question is then drafted by the same generation run a spreadsheet gets,
 * in the request, so that the panel has its drafts when the call returns.
 */

type Queryable = Pick<Database['pool'], 'query'>

interface QuestionRow {
  id: string
  match_key: string
  text: string
  vocabulary: string[] | null
  status: string
}

interface AnswerRow {
  question_id: string
  match_key: string
  answer_id: string
  text: string
  choice: string | null
  confidence: number | null
  citations: PortalAnswer['citations']
  status: string
  note: string | null
  version: number
}

const HUMAN = ['edited', 'approved']
const CHOICE_KINDS = new Set(['select', 'radio', 'checkbox'])
/** A select or a radio group takes one of its options: the engine answers in them. */
const ONE_OF = new Set(['select', 'radio'])
const same = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim()

/** What a field's answer may be chosen from: its options, for a select or a group. */
const vocabularyOf = (field: PortalField) =>
  ONE_OF.has(field.kind) && field.options.length ? field.options : null

const sameList = (a: string[] | null, b: string[] | null) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((value, index) => value === b?.[index])

export function createPortal(deps: {
  database: Database
  /** The generation run of a questionnaire (answering's), awaited in the request. */
  runGeneration: (questionnaireId: number, operationId: number) => Promise<void>
}) {
  const { pool } = deps.database

  /** The questionnaire a read goes to: the one named, or the one of the page's address. */
  async function find(client: Queryable, orgId: number, address: string, id?: number) {
    const { rows } = await client.query<{ id: string; kind: string; name: string }>(
      id
        ? 'select id, kind, name from questionnaires where org_id = $1 and id = $2 for update'
        : 'select id, kind, name from questionnaires where org_id = $1 and portal_url = $2 for update',
      [orgId, id ?? address],
    )
    const row = rows[0]
    if (!row) {
      if (id) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
      return null
    }
    if (row.kind !== 'portal')
      throw apiError(400, PORTAL_TEXTS.notPortal, { code: ERROR_CODES.validation })
    return { id: Number(row.id), name: row.name }
  }

  async function create(
    client: Queryable,
    by: AuditBy,
    address: string,
    title: string,
  ): Promise<{ id: number; name: string; created: boolean }> {
    const name = (title.trim() || new URL(address).host).slice(0, 255)
    // a portal counts towards the plan's questionnaires as an uploaded file does
    const limit = await limitOf(client, by.orgId, 'max_questionnaire', true)
    if (limit !== null) {
      const used = await client.query<{ count: string }>(
        'select count(*) from questionnaires where org_id = $1',
        [by.orgId],
      )
      if (Number(used.rows[0]?.count ?? 0) + 1 > limit)
        throw apiError(
          403,
          fillText(QUESTIONNAIRE_TEXTS.questionnairesLimit, { max_questionnaire: limit }),
          { code: LICENSE_LIMIT, detail: { limit: 'max_questionnaire', max: limit } },
        )
    }
    const { rows } = await client.query<{ id: string }>(
      `insert into questionnaires (org_id, name, kind, mime, size_bytes, storage_key, status, progress,
          created_by, owner_id, portal_url, analyzed_at)
       values ($1, $2, 'portal', 'text/html', 0, gen_random_uuid(), 'ready', 100, $3, $3, $4, now())
       on conflict (org_id, portal_url) where portal_url is not null do nothing
       returning id`,
      [by.orgId, name, by.actorId, address],
    )
    const inserted = rows[0]
    if (!inserted) {
      // read at the same moment by another call: its row is the one
      const found = await find(client, by.orgId, address)
      if (!found) throw new Error('a portal questionnaire vanished while it was being created')
      return { ...found, created: false }
    }
    const id = Number(inserted.id)
    await client.query(
      `insert into questionnaire_tabs (org_id, questionnaire_id, name, position, mapping_state)
       values ($1, $2, 'Page', 0, 'confirmed')`,
      [by.orgId, id],
    )
    return { id, name, created: true }
  }

  /** Adds the fields it lacks and rewords the ones whose words changed; returns the counts. */
  async function merge(client: Queryable, orgId: number, id: number, fields: PortalField[]) {
    const { rows: known } = await client.query<QuestionRow>(
      `select qq.id, qq.match_key, qq.text, qq.vocabulary, a.status
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.questionnaire_id = $1 and qq.deleted_at is null`,
      [id],
    )
    const byKey = new Map(known.map((row) => [row.match_key, row]))
    const { rows: head } = await client.query<{ tab_id: string; next: number }>(
      `select (select id from questionnaire_tabs where questionnaire_id = $1 order by position limit 1) as tab_id,
              coalesce((select max(position) + 1 from questionnaire_questions where questionnaire_id = $1), 0)::int as next`,
      [id],
    )
    const tabId = Number(head[0]?.tab_id)
    let next = head[0]?.next ?? 0
    const added: PortalField[] = []
    const reworded: { row: QuestionRow; field: PortalField }[] = []
    for (const field of fields) {
      const row = byKey.get(field.key)
      if (!row) added.push(field)
      else if (!same(row.text, field.question) || !sameList(row.vocabulary, vocabularyOf(field)))
        reworded.push({ row, field })
    }
    for (const { row, field } of reworded) {
      await client.query(
        'update questionnaire_questions set text = $2, vocabulary = $3, target = $4 where id = $1',
        [
          row.id,
          field.question,
          vocabularyOf(field),
          JSON.stringify({ portal: { kind: field.kind } }),
        ],
      )
      // a person's answer stays (they see the new words beside it); a draft is drafted again
      if (HUMAN.includes(row.status)) continue
      await client.query('delete from questionnaire_answers where question_id = $1 and rank > 0', [
        row.id,
      ])
      await client.query(
        `update questionnaire_answers set text = '', choice = null, comment = '', status = 'pending',
            confidence = null, citations = '[]', note = null, parts = null, source_change = null, updated_at = now()
          where question_id = $1 and rank = 0`,
        [row.id],
      )
      await client.query('update questionnaire_questions set selected_rank = 0 where id = $1', [
        row.id,
      ])
    }
    if (added.length) {
      const positions = added.map(() => next++)
      const { rows: inserted } = await client.query<{ id: string }>(
        `insert into questionnaire_questions (org_id, questionnaire_id, tab_id, position, text, vocabulary, target, match_key)
         select $1, $2, $3, t.position, t.text,
                case when t.vocabulary is null then null else array(select jsonb_array_elements_text(t.vocabulary)) end,
                t.target, t.match_key
           from unnest($4::int[], $5::text[], $6::jsonb[], $7::jsonb[], $8::text[])
             with ordinality as t(position, text, vocabulary, target, match_key, n)
          order by t.n
         returning id`,
        [
          orgId,
          id,
          tabId,
          positions,
          added.map((field) => field.question),
          added.map((field) => {
            const vocabulary = vocabularyOf(field)
            return vocabulary ? JSON.stringify(vocabulary) : null
          }),
          added.map((field) => JSON.stringify({ portal: { kind: field.kind } })),
          added.map((field) => field.key),
        ],
      )
      await client.query(
        `insert into questionnaire_answers (org_id, questionnaire_id, question_id, rank)
         select $1, $2, unnest($3::bigint[]), 0`,
        [orgId, id, inserted.map((row) => row.id)],
      )
    }
    return { added: added.length, changed: reworded.length }
  }

  async function answersOf(orgId: number, id: number, fields: PortalField[]) {
    const { rows } = await pool.query<AnswerRow>(
      `select qq.id as question_id, qq.match_key, a.id as answer_id, a.text, a.choice, a.confidence,
              a.citations, a.status, a.note, a.version
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.org_id = $1 and qq.questionnaire_id = $2 and qq.deleted_at is null
          and qq.match_key = any($3::text[])`,
      [orgId, id, fields.map((field) => field.key)],
    )
    const byKey = new Map(rows.map((row) => [row.match_key, row]))
    return fields.flatMap((field): PortalAnswer[] => {
      const row = byKey.get(field.key)
      if (!row) return []
      const person = HUMAN.includes(row.status)
      const answered = Boolean(row.text.trim() || row.choice)
      // a band speaks for a machine's answer only: not a person's, not an empty one
      const confidence =
        person || !answered || row.confidence === null ? null : Number(row.confidence)
      const named = row.choice ?? row.text
      const option = !CHOICE_KINDS.has(field.kind)
        ? undefined
        : field.kind === 'checkbox'
          ? optionsNamed(field.options, named).join(', ') || null
          : (field.options[optionFor(field.options, named)] ?? null)
      return [
        {
          key: field.key,
          question_id: Number(row.question_id),
          answer_id: Number(row.answer_id),
          text: row.text,
          choice: row.choice,
          ...(option !== undefined && { option }),
          confidence: confidence === null ? null : Math.round(confidence * 1000) / 1000,
          band: confidenceBand(confidence),
          citations: row.citations,
          status: row.status,
          note: row.note,
          version: row.version,
        },
      ]
    })
  }

  /** POST extension/portal/read/: keeps the page's questions and drafts the open ones. */
  async function read(by: AuditBy, body: PortalReadRequest): Promise<PortalReadResponse> {
    const address = portalAddress(body.url)
    const seen = new Set<string>()
    const fields = body.fields.filter((field) => !seen.has(field.key) && seen.add(field.key))
    const outcome = await inTransaction(pool, async (client) => {
      const found = await find(client, by.orgId, address, body.questionnaire_id)
      const target = found
        ? { ...found, created: false }
        : await create(client, by, address, body.title)
      const { rows: state } = await client.query<{ status: string }>(
        'select status from questionnaires where id = $1',
        [target.id],
      )
      if (state[0]?.status !== 'ready') throw apiError(409, PORTAL_TEXTS.busy, { code: 'conflict' })
      const counts = await merge(client, by.orgId, target.id, fields)
      if (counts.added || counts.changed) {
        const summary = `read the portal page ${address}: ${fields.length.toLocaleString('en')} questions, ${counts.added.toLocaleString('en')} new, ${counts.changed.toLocaleString('en')} reworded`
        await client.query(
          `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count, created_by)
           values ($1, $2, 'portal_read', $3, $4, $5)`,
          [by.orgId, target.id, `R${summary.slice(1)}`, counts.added + counts.changed, by.actorId],
        )
        await writeAudit(client, by, {
          action: 'questionnaire.portal_read',
          target: `questionnaire:${target.id}`,
          name: target.name,
          detail: { summary, url: address, added: counts.added, changed: counts.changed },
        })
      }
      // the open questions are drafted now, by a generation run of their own
      const { rows: open } = await client.query(
        `select 1 from questionnaire_questions qq
           join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
          where qq.questionnaire_id = $1 and qq.deleted_at is null and a.status in ('pending', 'failed') limit 1`,
        [target.id],
      )
      let operationId: number | null = null
      if (open.length) {
        await client.query(
          `update questionnaires set status = 'generating', progress = 0, progress_label = 'Finding evidence',
              error = null, processing_started_at = now(), updated_at = now()
            where id = $1`,
          [target.id],
        )
        const { rows } = await client.query<{ id: string }>(
          `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, created_by)
           values ($1, $2, 'generate', 'Generated answers', $3) returning id`,
          [by.orgId, target.id, by.actorId],
        )
        operationId = Number(rows[0]?.id)
      } else if (counts.added || counts.changed) {
        await client.query(
          'update questionnaires set revision = revision + 1, updated_at = now() where id = $1',
          [target.id],
        )
      }
      return { ...target, ...counts, operationId }
    })
    if (outcome.created)
      await guessProduct(pool, by.orgId, { table: 'questionnaires', id: outcome.id }, [
        outcome.name,
        body.title,
      ])
    if (outcome.operationId !== null) await deps.runGeneration(outcome.id, outcome.operationId)
    return {
      questionnaire_id: outcome.id,
      name: outcome.name,
      url: address,
      added: outcome.added,
      changed: outcome.changed,
      answers: await answersOf(by.orgId, outcome.id, fields),
    }
  }

  /** POST extension/portal/filled/: what the extension put into the page, in the history. */
  async function filled(by: AuditBy, body: PortalFilledRequest) {
    return inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ kind: string; name: string }>(
        'select kind, name from questionnaires where org_id = $1 and id = $2 for update',
        [by.orgId, body.questionnaire_id],
      )
      const questionnaire = rows[0]
      if (!questionnaire) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
      if (questionnaire.kind !== 'portal')
        throw apiError(400, PORTAL_TEXTS.notPortal, { code: ERROR_CODES.validation })
      const ids = [...new Set(body.fills.map((fill) => fill.answer_id))]
      const { rows: owned } = await client.query<{ question_id: string }>(
        `select distinct question_id from questionnaire_answers
          where org_id = $1 and questionnaire_id = $2 and id = any($3::bigint[])`,
        [by.orgId, body.questionnaire_id, ids],
      )
      const { rows: count } = await client.query<{ n: number }>(
        `select count(*)::int as n from questionnaire_answers
          where org_id = $1 and questionnaire_id = $2 and id = any($3::bigint[])`,
        [by.orgId, body.questionnaire_id, ids],
      )
      if ((count[0]?.n ?? 0) !== ids.length)
        throw apiError(400, PORTAL_TEXTS.unknownAnswer, { code: ERROR_CODES.validation })
      const replaced = body.fills.filter((fill) => fill.overwrote).length
      const n = body.fills.length
      const summary = `Filled ${n.toLocaleString('en')} ${n === 1 ? 'answer' : 'answers'} into the portal page${replaced ? ` (${replaced.toLocaleString('en')} replacing what the page held)` : ''}`
      await client.query(
        `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count, created_by)
         values ($1, $2, 'portal_fill', $3, $4, $5)`,
        [by.orgId, body.questionnaire_id, summary, owned.length, by.actorId],
      )
      await writeAudit(client, by, {
        action: 'questionnaire.portal_filled',
        target: `questionnaire:${body.questionnaire_id}`,
        name: questionnaire.name,
        detail: {
          summary: `f${summary.slice(1)}`,
          answers: n,
          replaced,
          keys: body.fills.map((fill) => fill.key).slice(0, 200),
        },
      })
      // the questionnaire's viewers see the history grow (issue 29)
      const [notify, values] = notifyStatement({
        key: `questionnaire:${body.questionnaire_id}`,
        org: by.orgId,
        type: 'change',
        data: { kind: 'work', question_ids: null, by: by.actorId, revision: null },
      })
      await client.query(notify, values)
      return { recorded: n }
    })
  }

  return { read, filled }
}

export type Portal = ReturnType<typeof createPortal>
