import type { Activity, ActivityKind, ChangeKind } from '../../../contract/collaboration.ts'
import { type AuditBy, writeAudit } from '../../db/audit.ts'
import { personOf } from '../../db/people.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import type { Queryable } from '../questionnaires/shared.ts'

/**
 * A questionnaire's activity (issue 29): each assignment, answer, review step, comment and export,
 * by whom and when, written beside the organisation's audit log in the same transaction.
 */
export interface ActivityEntry {
  orgId: number
  questionnaireId: number
  kind: ActivityKind
  summary: string
  questionId?: number | null
  userId: number | null
  detail?: Record<string, unknown>
}

export async function recordActivity(client: Queryable, entry: ActivityEntry) {
  await client.query(
    `insert into questionnaire_activity (org_id, questionnaire_id, kind, summary, question_id, created_by)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      entry.orgId,
      entry.questionnaireId,
      entry.kind,
      entry.summary,
      entry.questionId ?? null,
      entry.userId,
    ],
  )
  await auditQuestionnaire(
    client,
    { orgId: entry.orgId, actorId: entry.userId },
    `questionnaire.${entry.kind}`,
    entry.questionnaireId,
    {
      summary: entry.summary,
      ...(entry.questionId ? { question_id: entry.questionId } : {}),
      ...entry.detail,
    },
  )
}

/** An audit entry on a questionnaire, by the name it has now (issue 30). */
export async function auditQuestionnaire(
  client: Queryable,
  by: AuditBy,
  action: string,
  questionnaireId: number,
  detail: Record<string, unknown> = {},
) {
  const { rows } = await client.query<{ name: string }>(
    'select name from questionnaires where id = $1 and org_id = $2',
    [questionnaireId, by.orgId],
  )
  await writeAudit(client, by, {
    action,
    target: `questionnaire:${questionnaireId}`,
    name: rows[0]?.name ?? null,
    detail,
  })
}

/**
 * Tells the questionnaire's viewers what changed (delivered when the transaction commits); the
 * question ids name the rows to read again (null: all of them).
 */
export async function announceChange(
  client: Queryable,
  change: {
    orgId: number
    questionnaireId: number
    kind: ChangeKind
    questionIds: number[] | null
    userId: number | null
  },
) {
  // the rows' cache key moves with the questionnaire's updated_at
  await client.query('update questionnaires set updated_at = now() where id = $1', [
    change.questionnaireId,
  ])
  const [text, values] = notifyStatement({
    key: `questionnaire:${change.questionnaireId}`,
    org: change.orgId,
    type: 'change',
    data: { kind: change.kind, question_ids: change.questionIds, by: change.userId },
  })
  await client.query(text, values)
}

/** A questionnaire's activity, newest first; or, with `questionnaireId` null, the organisation's. */
export async function activityOf(
  client: Queryable,
  orgId: number,
  questionnaireId: number | null,
  options: { before?: number; limit: number },
): Promise<Activity[]> {
  const { rows } = await client.query<{
    id: string
    kind: ActivityKind
    summary: string
    question_id: string | null
    created_at: Date
    user_id: string | null
    first_name: string | null
    last_name: string | null
    email: string | null
    questionnaire_id: string
    questionnaire_name: string
  }>(
    `select a.id, a.kind, a.summary, a.question_id, a.created_at, u.id as user_id, u.first_name,
            u.last_name, u.email, q.id as questionnaire_id, q.name as questionnaire_name
       from questionnaire_activity a left join users u on u.id = a.created_by
       join questionnaires q on q.id = a.questionnaire_id
      where a.org_id = $1 and ($2::bigint is null or a.questionnaire_id = $2)
        and ($3::bigint is null or a.id < $3)
      order by a.id desc limit $4`,
    [orgId, questionnaireId, options.before ?? null, options.limit],
  )
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    summary: row.summary,
    by: personOf(row),
    question_id: row.question_id ? Number(row.question_id) : null,
    created_at: row.created_at.toISOString(),
    ...(questionnaireId === null
      ? { questionnaire: { id: Number(row.questionnaire_id), name: row.questionnaire_name } }
      : {}),
  }))
}
