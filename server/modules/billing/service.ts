import { randomBytes } from 'node:crypto'
import {
  BILLING_TEXTS,
  type CheckoutResponse,
  LIMIT_LABELS,
  LIMITS,
  type PayoutConfirmation,
  type Subscription,
  type Usage,
} from '../../../contract/billing.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Database } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { effectiveLimit, inForce, type LicenseRow, type TierCatalog } from '../account/license.ts'
import { ANSWERED_SQL } from '../questionnaires/shared.ts'

/** Usage against the license, the subscription, checkout references and the landing page's check. */
export function createBillingService(deps: {
  database: Database
  catalog: () => TierCatalog
  now: () => Date
}) {
  const { pool } = deps.database

  async function license(orgId: number) {
    const { rows } = await pool.query<{
      tier_key: string
      tier_name: string
      max_users: number
      max_repository: number
      max_questionnaire: number
      max_answers: number
      is_evaluation: boolean
      multi_language: boolean
      is_active: boolean
      expiration_date: Date | null
    }>('select * from licenses where org_id = $1', [orgId])
    return rows[0]
  }

  async function usage(orgId: number): Promise<Usage> {
    const row = await license(orgId)
    const { rows } = await pool.query<{
      users: string
      files: string
      questionnaires: string
      answers: string
    }>(
      `select
         (select count(*) from users where org_id = $1 and status not in ('removed', 'pending')) as users,
         (select count(*) from repository_files where org_id = $1) as files,
         (select count(*) from questionnaires where org_id = $1) as questionnaires,
         (select count(*) from questionnaire_answers a
            join questionnaire_questions qq on qq.id = a.question_id and a.rank = qq.selected_rank
           where a.org_id = $1 and qq.deleted_at is null and ${ANSWERED_SQL}) as answers`,
      [orgId],
    )
    const counts = rows[0]
    const used = {
      max_users: Number(counts?.users ?? 0),
      max_repository: Number(counts?.files ?? 0),
      max_questionnaire: Number(counts?.questionnaires ?? 0),
      max_answers: Number(counts?.answers ?? 0),
    }
    const now = deps.now()
    const licenseRow: LicenseRow | undefined = row && {
      maxUsers: row.max_users,
      maxRepository: row.max_repository,
      maxQuestionnaire: row.max_questionnaire,
      maxAnswers: row.max_answers,
      isActive: row.is_active,
      expirationDate: row.expiration_date,
    }
    const active = licenseRow ? inForce(licenseRow, now) : false
    const fallback = deps.catalog().defaultTier
    return {
      tier: active && row ? row.tier_key : fallback.key,
      tier_name: active && row ? row.tier_name : fallback.name,
      is_evaluation: active && row ? row.is_evaluation : fallback.limits.is_evaluation,
      multi_language: active && row ? row.multi_language : fallback.limits.multi_language,
      is_active: active,
      expiration_date: row?.expiration_date?.toISOString() ?? null,
      limits: LIMITS.map((name) => ({
        name,
        label: LIMIT_LABELS[name],
        used: used[name],
        max: effectiveLimit(licenseRow, name, now),
      })),
    }
  }

  async function subscription(orgId: number): Promise<Subscription> {
    const { rows } = await pool.query<{
      id: string
      status: NonNullable<Subscription['subscription']>['status']
      tier_key: string | null
      billing_period: 'monthly' | 'yearly' | null
      current_period_end: Date | null
      canceled_at: Date | null
      updated_at: Date
    }>(
      `select id, status, tier_key, billing_period, current_period_end, canceled_at, updated_at
         from subscriptions where org_id = $1 order by (status <> 'canceled') desc, event_at desc limit 1`,
      [orgId],
    )
    const row = rows[0]
    if (!row) return { subscription: null }
    return {
      subscription: {
        id: row.id,
        status: row.status,
        tier: row.tier_key,
        tier_name: row.tier_key ? (deps.catalog().byKey(row.tier_key)?.name ?? null) : null,
        billing_period: row.billing_period,
        current_period_end: row.current_period_end?.toISOString() ?? null,
        canceled_at: row.canceled_at?.toISOString() ?? null,
        updated_at: row.updated_at.toISOString(),
      },
    }
  }

  /** A one-time reference for a checkout of a price the catalogue sells (WH5). */
  async function checkout(auth: AuthContext, priceId: string): Promise<CheckoutResponse> {
    if (!deps.catalog().byPriceId(priceId))
      throw apiError(400, BILLING_TEXTS.unknownPrice, { code: ERROR_CODES.validation })
    const reference = `qr_${randomBytes(24).toString('base64url')}`
    await pool.query(
      'insert into checkout_references (reference, org_id, created_by, price_id) values ($1, $2, $3, $4)',
      [reference, auth.org.id, auth.user.id, priceId],
    )
    return { reference, paddle_price_id: priceId, email: auth.user.email }
  }

  /**
   * The landing page's POST {data}: the provider's transaction id the checkout completed. It only
   * reads what a verified delivery recorded: pending until that delivery arrived, 404 when the
   * transaction belongs to another organisation than the signed-in caller's.
   */
  async function confirm(orgId: number, data: string): Promise<PayoutConfirmation> {
    if (!/^txn_[a-z0-9]{10,64}$/.test(data))
      throw apiError(400, BILLING_TEXTS.webhookFailed, { code: ERROR_CODES.validation })
    const { rows } = await pool.query<{
      org_id: string | null
      status: NonNullable<PayoutConfirmation['transaction_status']>
      tier_key: string | null
    }>('select org_id, status, tier_key from payment_transactions where id = $1', [data])
    const row = rows[0]
    if (!row) return { status: 'pending' }
    if (Number(row.org_id) !== orgId) throw notFound(BILLING_TEXTS.webhookFailed)
    const settled = row.status === 'completed' || row.status === 'paid' || row.status === 'billed'
    if (row.status === 'canceled' || row.status === 'past_due')
      throw apiError(409, BILLING_TEXTS.webhookFailed, { code: ERROR_CODES.conflict })
    if (!settled) return { status: 'pending', transaction_status: row.status }
    return {
      status: 'processed',
      transaction_status: row.status,
      tier_name: row.tier_key ? (deps.catalog().byKey(row.tier_key)?.name ?? null) : null,
    }
  }

  return { usage, subscription, checkout, confirm }
}
