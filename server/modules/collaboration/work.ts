import {
  COLLABORATION_TEXTS,
  type Customer,
  type CustomerCreate,
  type CustomerPage,
  type Person,
  WORK_STATUS_LABELS,
  type WorkUpdate,
} from '../../../contract/collaboration.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import { announceChange, recordActivity } from './activity.ts'

/**
 * A questionnaire as a piece of work (issue 29): its owner, customer, requester, due date and
 * status; and the customers an organisation keeps, each with its questionnaires by year.
 */
export function createWork(deps: { database: Database }) {
  const { pool } = deps.database

  /** An active person of the organisation who may do the work (not a viewer); else 400. */
  async function checkWorker(client: Queryable, orgId: number, userId: number, message: string) {
    const { rows } = await client.query(
      `select 1 from users where org_id = $1 and id = $2 and status = 'active' and role <> 'viewer'`,
      [orgId, userId],
    )
    if (!rows.length) throw apiError(400, message, { code: 'validation_error' })
  }

  async function customerByName(client: Queryable, orgId: number, userId: number, name: string) {
    const { rows } = await client.query<{ id: string }>(
      `insert into customers (org_id, name, created_by) values ($1, $2, $3)
       on conflict (org_id, lower(name)) do update set updated_at = customers.updated_at
       returning id`,
      [orgId, name, userId],
    )
    return Number(rows[0]?.id)
  }

  async function update(orgId: number, userId: number, questionnaireId: number, body: WorkUpdate) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{
        owner_id: string | null
        customer_id: string | null
        requester: string | null
        due_date: string | null
        work_status: string
      }>(
        `select owner_id, customer_id, requester, due_date::text as due_date, work_status
           from questionnaires where org_id = $1 and id = $2 for update`,
        [orgId, questionnaireId],
      )
      const before = rows[0]
      if (!before) throw notFound('That questionnaire was not found.')
      const said: string[] = []
      const sets: string[] = []
      const values: unknown[] = [orgId, questionnaireId]
      const set = (column: string, value: unknown) => {
        values.push(value)
        sets.push(`${column} = $${values.length}`)
      }
      if (body.owner_id !== undefined) {
        if (body.owner_id !== null)
          await checkWorker(client, orgId, body.owner_id, COLLABORATION_TEXTS.ownerNotAllowed)
        set('owner_id', body.owner_id)
        said.push(body.owner_id === null ? 'cleared the owner' : 'set the owner')
      }
      let customerId = body.customer_id
      if (body.customer_name !== undefined)
        customerId = await customerByName(client, orgId, userId, body.customer_name)
      else if (customerId) {
        const found = await client.query('select 1 from customers where org_id = $1 and id = $2', [
          orgId,
          customerId,
        ])
        if (!found.rowCount) throw notFound(COLLABORATION_TEXTS.customerNotFound)
      }
      if (customerId !== undefined) {
        set('customer_id', customerId)
        said.push(customerId === null ? 'cleared the customer' : 'set the customer')
      }
      if (body.requester !== undefined) {
        set('requester', body.requester || null)
        said.push(
          body.requester ? `set the requester to ${body.requester}` : 'cleared the requester',
        )
      }
      if (body.due_date !== undefined) {
        set('due_date', body.due_date)
        said.push(body.due_date ? `set the due date to ${body.due_date}` : 'cleared the due date')
      }
      if (body.work_status !== undefined && body.work_status !== before.work_status) {
        set('work_status', body.work_status)
        said.push(`marked it ${WORK_STATUS_LABELS[body.work_status].toLowerCase()}`)
      }
      if (!sets.length) return
      await client.query(
        `update questionnaires set ${sets.join(', ')}, updated_at = now() where org_id = $1 and id = $2`,
        values,
      )
      const summary = said.join('; ')
      await recordActivity(client, {
        orgId,
        questionnaireId,
        kind: 'work',
        summary: summary.charAt(0).toUpperCase() + summary.slice(1),
        userId,
      })
      await announceChange(client, {
        orgId,
        questionnaireId,
        kind: 'work',
        questionIds: [],
        userId,
      })
    })
  }

  const CUSTOMER_SQL = `
    select c.id, c.name, c.domain, c.created_at,
           (select count(*) from questionnaires q where q.customer_id = c.id) as questionnaires
      from customers c`
  interface CustomerDb {
    id: string
    name: string
    domain: string | null
    created_at: Date
    questionnaires: string
  }
  const toCustomer = (row: CustomerDb): Customer => ({
    id: Number(row.id),
    name: row.name,
    domain: row.domain,
    questionnaires: Number(row.questionnaires),
    created_at: row.created_at.toISOString(),
  })

  async function customers(orgId: number): Promise<Customer[]> {
    const { rows } = await pool.query<CustomerDb>(
      `${CUSTOMER_SQL} where c.org_id = $1 order by lower(c.name)`,
      [orgId],
    )
    return rows.map(toCustomer)
  }

  async function createCustomer(orgId: number, userId: number, body: CustomerCreate) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into customers (org_id, name, domain, created_by) values ($1, $2, $3, $4)
       on conflict (org_id, lower(name)) do nothing returning id`,
      [orgId, body.name, body.domain || null, userId],
    )
    if (!rows[0]) throw apiError(409, COLLABORATION_TEXTS.customerExists, { code: 'conflict' })
    return customer(orgId, Number(rows[0].id))
  }

  async function customer(orgId: number, id: number): Promise<CustomerPage> {
    const { rows } = await pool.query<CustomerDb>(
      `${CUSTOMER_SQL} where c.org_id = $1 and c.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(COLLABORATION_TEXTS.customerNotFound)
    const list = await pool.query<{
      id: string
      name: string
      work_status: CustomerPage['questionnaires'][number]['work_status']
      due_date: string | null
      created_at: Date
      questions: string
      approved: string
    }>(
      `select q.id, q.name, q.work_status, q.due_date::text as due_date, q.created_at,
              count(qq.id) as questions, count(qq.id) filter (where a.status = 'approved') as approved
         from questionnaires q
         left join questionnaire_questions qq on qq.questionnaire_id = q.id and qq.deleted_at is null
         left join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where q.org_id = $1 and q.customer_id = $2
        group by q.id order by q.created_at desc`,
      [orgId, id],
    )
    return {
      customer: toCustomer(rows[0]),
      questionnaires: list.rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        work_status: row.work_status,
        due_date: row.due_date,
        created_at: row.created_at.toISOString(),
        year: row.created_at.getUTCFullYear(),
        questions: Number(row.questions),
        approved: Number(row.approved),
      })),
    }
  }

  /** The organisation's active people (for assignees, owners and mentions), by name. */
  async function people(orgId: number): Promise<Person[]> {
    const { rows } = await pool.query<{
      id: string
      name: string
      email: string
      role: Person['role']
    }>(
      `select id, coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) as name, email, role
         from users where org_id = $1 and status = 'active' order by lower(first_name || ' ' || last_name), lower(email)`,
      [orgId],
    )
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      email: row.email,
      role: row.role,
      assignable: row.role !== 'viewer',
    }))
  }

  return { update, customers, createCustomer, customer, checkWorker, people }
}

export type Work = ReturnType<typeof createWork>
