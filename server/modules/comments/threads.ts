import type { Comment } from '../../../contract/collaboration.ts'
import { personOf } from '../../db/people.ts'
import type { Queryable } from '../questionnaires/shared.ts'

interface CommentDb {
  id: string
  question_id: string
  parent_id: string | null
  body: string
  mentions: string[]
  created_at: Date
  edited_at: Date | null
  deleted_at: Date | null
  resolved_at: Date | null
  user_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
  resolver_id: string | null
  resolver_first: string | null
  resolver_last: string | null
  resolver_email: string | null
}

/**
 * The comments of a question (or the ones named), threads in order: each first comment, then its
 * replies oldest first. A deleted comment keeps its place in its thread, without its text.
 */
export async function commentsOf(
  client: Queryable,
  orgId: number,
  where: { questionId: number } | { ids: number[] },
): Promise<Comment[]> {
  const byQuestion = 'questionId' in where
  const { rows } = await client.query<CommentDb>(
    `select c.id, c.question_id, c.parent_id, c.body, c.mentions::text[] as mentions, c.created_at,
            c.edited_at, c.deleted_at, c.resolved_at,
            a.id as user_id, a.first_name, a.last_name, a.email,
            r.id as resolver_id, r.first_name as resolver_first, r.last_name as resolver_last,
            r.email as resolver_email
       from question_comments c
       left join users a on a.id = c.author_id
       left join users r on r.id = c.resolved_by
      where c.org_id = $1 and ${byQuestion ? 'c.question_id = $2' : 'c.id = any($2::bigint[])'}
      order by coalesce(c.parent_id, c.id), c.id`,
    [orgId, byQuestion ? where.questionId : where.ids],
  )
  const mentioned = [...new Set(rows.flatMap((row) => (row.deleted_at ? [] : row.mentions)))]
  const people = new Map<string, { id: string; name: string; email: string }>()
  if (mentioned.length) {
    const found = await client.query<{
      user_id: string
      first_name: string
      last_name: string
      email: string
    }>(
      `select id as user_id, first_name, last_name, email from users
        where org_id = $1 and id = any($2::bigint[])`,
      [orgId, mentioned],
    )
    for (const row of found.rows) {
      const person = personOf(row)
      if (person) people.set(String(row.user_id), person)
    }
  }
  return rows.map((row) => ({
    id: Number(row.id),
    question_id: Number(row.question_id),
    parent_id: row.parent_id ? Number(row.parent_id) : null,
    author: personOf(row),
    body: row.deleted_at ? '' : row.body,
    mentions: row.deleted_at
      ? []
      : row.mentions.flatMap((id) => {
          const person = people.get(String(id))
          return person ? [person] : []
        }),
    created_at: row.created_at.toISOString(),
    edited_at: row.edited_at?.toISOString() ?? null,
    deleted: Boolean(row.deleted_at),
    resolved_at: row.resolved_at?.toISOString() ?? null,
    resolved_by: personOf({
      user_id: row.resolver_id,
      first_name: row.resolver_first,
      last_name: row.resolver_last,
      email: row.resolver_email,
    }),
  }))
}
