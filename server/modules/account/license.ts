import { readFileSync } from 'node:fs'
import * as z from 'zod/mini'
import {
  BILLING_PERIODS,
  type BillingPeriod,
  type LimitName,
  type PricingTier,
} from '../../../contract/billing.ts'
import { type Database, inTransaction } from '../../db/index.ts'

/**
 * License tiers come from configuration (config/license-tiers.json, or LICENSE_TIERS_FILE): a
 * default tier every new organisation starts on, paid tiers with monthly and yearly prices. An
 * organisation's license row copies its tier's limits, and limits are read only from that row,
 * never from a request (TI6). A limit of 0 or less means no limit.
 */

export const DEFAULT_TIERS_FILE = new URL('../../../config/license-tiers.json', import.meta.url)
  .pathname

const price = z.object({
  price: z.number().check(z.minimum(0)),
  paddle_price_id: z.nullable(z.string().check(z.regex(/^pri_[a-z0-9]{10,64}$/))),
})

const tierConfig = z.object({
  key: z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/)),
  name: z.string().check(z.minLength(1), z.maxLength(60)),
  description: z._default(z.string(), ''),
  popular: z._default(z.boolean(), false),
  highlighted: z._default(z.boolean(), false),
  features: z._default(z.array(z.string()), []),
  limits: z.object({
    max_users: z.int(),
    max_repository: z.int(),
    max_questionnaire: z.int(),
    max_answers: z.int(),
    multi_language: z._default(z.boolean(), false),
    is_evaluation: z._default(z.boolean(), false),
    /** Chat questions per month (0: no limit); read from the tier, not copied to licenses. */
    max_chat_questions: z._default(z.int(), 100),
  }),
  prices: z.object({ monthly: price, yearly: price }),
})

const catalogConfig = z
  .object({
    default_tier: z.string(),
    sales_url: z._default(z.string().check(z.regex(/^(mailto:|https?:\/\/)/)), 'mailto:'),
    tiers: z.array(tierConfig).check(z.minLength(1)),
  })
  .check(
    z.refine((catalog) => catalog.tiers.some((tier) => tier.key === catalog.default_tier), {
      message: 'default_tier must be the key of one of the tiers',
    }),
    z.refine(
      (catalog) => new Set(catalog.tiers.map((tier) => tier.key)).size === catalog.tiers.length,
      {
        message: 'every tier needs its own key',
      },
    ),
    z.refine(
      (catalog) => {
        const ids = catalog.tiers.flatMap((tier) =>
          BILLING_PERIODS.map((period) => tier.prices[period].paddle_price_id).filter(Boolean),
        )
        return new Set(ids).size === ids.length
      },
      { message: 'a paddle_price_id may be used by one tier and period only' },
    ),
    z.refine((catalog) => catalog.tiers.filter((tier) => tier.popular).length <= 1, {
      message: 'at most one tier may be popular',
    }),
  )

export type TierConfig = z.infer<typeof tierConfig>

/** The limits a license row holds (camel-cased as in the schema). */
export interface TierLimits {
  tierKey: string
  tierName: string
  maxUsers: number
  maxRepository: number
  maxQuestionnaire: number
  maxAnswers: number
  multiLanguage: boolean
  isEvaluation: boolean
}

export interface TierCatalog {
  defaultTier: TierConfig
  salesUrl: string
  tiers: TierConfig[]
  byKey(key: string): TierConfig | undefined
  /** The tier and period a provider's price id sells (WH5: the only source of a paid tier). */
  byPriceId(priceId: string): { tier: TierConfig; period: BillingPeriod } | undefined
  /** GET admin/license_tiers/: each tier at each period. */
  pricing(): PricingTier[]
}

export const limitsOf = (tier: TierConfig): TierLimits => ({
  tierKey: tier.key,
  tierName: tier.name,
  maxUsers: tier.limits.max_users,
  maxRepository: tier.limits.max_repository,
  maxQuestionnaire: tier.limits.max_questionnaire,
  maxAnswers: tier.limits.max_answers,
  multiLanguage: tier.limits.multi_language,
  isEvaluation: tier.limits.is_evaluation,
})

/** Reads and checks a tiers file; a bad one stops the start with what is wrong. */
export function loadTierCatalog(file: string = DEFAULT_TIERS_FILE): TierCatalog {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`LICENSE_TIERS_FILE ${file} cannot be read as JSON: ${String(error)}`)
  }
  const parsed = catalogConfig.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(
      `LICENSE_TIERS_FILE ${file}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`,
    )
  }
  return catalogOf(parsed.data)
}

function catalogOf(config: z.infer<typeof catalogConfig>): TierCatalog {
  const tiers = config.tiers
  const byKey = (key: string) => tiers.find((tier) => tier.key === key)
  return {
    defaultTier: byKey(config.default_tier) as TierConfig,
    salesUrl: config.sales_url,
    tiers,
    byKey,
    byPriceId(priceId) {
      for (const tier of tiers)
        for (const period of BILLING_PERIODS)
          if (tier.prices[period].paddle_price_id === priceId) return { tier, period }
      return undefined
    },
    pricing() {
      return tiers.flatMap((tier) =>
        BILLING_PERIODS.map((period) => ({
          id: `${tier.key}-${period}`,
          name: `${tier.name} (${period === 'monthly' ? 'Monthly' : 'Yearly'})`,
          base_name: tier.name,
          tier: tier.key,
          description: tier.description,
          price: tier.prices[period].price,
          billing_period: period,
          paddle_price_id: tier.prices[period].paddle_price_id,
          popular: tier.popular,
          highlighted: tier.highlighted,
          features: tier.features,
          ...tier.limits,
        })),
      )
    },
  }
}

let shared: TierCatalog | undefined
/** The catalogue of LICENSE_TIERS_FILE (or the shipped one), read once per process. */
export function tierCatalog(): TierCatalog {
  shared ??= loadTierCatalog(process.env.LICENSE_TIERS_FILE?.trim() || DEFAULT_TIERS_FILE)
  return shared
}

/** Reads the tiers of a file (LICENSE_TIERS_FILE) and makes them this process's catalogue. */
export function configureTiers(file: string | undefined): TierCatalog {
  shared = loadTierCatalog(file?.trim() || DEFAULT_TIERS_FILE)
  return shared
}

const LIMIT_FIELDS = [
  'tierName',
  'maxUsers',
  'maxRepository',
  'maxQuestionnaire',
  'maxAnswers',
  'multiLanguage',
  'isEvaluation',
] as const
const sameLimits = (a: TierLimits, b: TierLimits) =>
  LIMIT_FIELDS.every((field) => a[field] === b[field])
/**
 * A tier's limits in the order of the license columns they fill: tier_name, max_users,
 * max_repository, max_questionnaire, max_answers, multi_language, is_evaluation.
 */
export const limitValues = (limits: TierLimits) => LIMIT_FIELDS.map((field) => limits[field])

/**
 * Applies an edited tiers file at start: the licenses of a tier still on the limits that tier had
 * at the previous start move to its new limits (and name); a license whose limits were set by
 * hand keeps them. Returns how many licenses changed. Several nodes may start at once: the
 * remembered limits are locked while they are compared and replaced.
 */
export async function syncLicenses(pool: Database['pool'], catalog: TierCatalog): Promise<number> {
  return inTransaction(pool, async (client) => {
    let changed = 0
    await client.query('lock table license_tier_configs in share row exclusive mode')
    for (const tier of catalog.tiers) {
      const limits = limitsOf(tier)
      const { rows } = await client.query<{ limits: TierLimits }>(
        'select limits from license_tier_configs where key = $1',
        [tier.key],
      )
      const before = rows[0]?.limits
      if (before && !sameLimits(before, limits)) {
        const { rowCount } = await client.query(
          `update licenses set tier_name = $2, max_users = $3, max_repository = $4,
                  max_questionnaire = $5, max_answers = $6, multi_language = $7, is_evaluation = $8
            where tier_key = $1 and (tier_name, max_users, max_repository, max_questionnaire,
                  max_answers, multi_language, is_evaluation)
                  = ($9, $10, $11, $12, $13, $14, $15)`,
          [tier.key, ...limitValues(limits), ...limitValues(before)],
        )
        changed += rowCount ?? 0
      }
      await client.query(
        `insert into license_tier_configs (key, limits, updated_at) values ($1, $2, now())
         on conflict (key) do update set limits = excluded.limits, updated_at = now()`,
        [tier.key, limits],
      )
    }
    return changed
  })
}

/** The shipped default tier's limits: what a new organisation starts on. */
export const defaultLimits = () => limitsOf(tierCatalog().defaultTier)

export const LIMIT_COLUMNS: Record<LimitName, string> = {
  max_users: 'max_users',
  max_repository: 'max_repository',
  max_questionnaire: 'max_questionnaire',
  max_answers: 'max_answers',
}

type Queryable = Pick<Database['pool'], 'query'>

/** A license row as drizzle reads it. */
export interface LicenseRow {
  maxUsers: number
  maxRepository: number
  maxQuestionnaire: number
  maxAnswers: number
  isActive: boolean
  expirationDate: Date | null
}

const FIELDS: Record<LimitName, keyof LicenseRow> = {
  max_users: 'maxUsers',
  max_repository: 'maxRepository',
  max_questionnaire: 'maxQuestionnaire',
  max_answers: 'maxAnswers',
}

/** Whether a license is in force at `now`: active and not past its expiration date. */
export const inForce = (row: Pick<LicenseRow, 'isActive' | 'expirationDate'>, now: Date) =>
  row.isActive && (row.expirationDate === null || row.expirationDate > now)

/** The limit a license row puts in force (null: none), the default tier's when it is not in force. */
export function effectiveLimit(
  row: LicenseRow | undefined,
  limit: LimitName,
  now: Date,
): number | null {
  const fallback = tierCatalog().defaultTier.limits[limit]
  const value = row && inForce(row, now) ? (row[FIELDS[limit]] as number) : fallback
  return value > 0 ? value : null
}

/**
 * The limit in force for an organisation: its license row's, unless the license was ended or its
 * expiration date passed, when the default tier's applies. Null: no limit. With `lock`, the
 * license row is locked so that two requests at the limit cannot both pass (TI6).
 */
export async function limitOf(
  client: Queryable,
  orgId: number,
  limit: LimitName,
  lock: boolean,
): Promise<number | null> {
  const { rows } = await client.query<{ value: number; in_force: boolean }>(
    `select ${LIMIT_COLUMNS[limit]} as value,
            (is_active and (expiration_date is null or expiration_date > now())) as in_force
       from licenses where org_id = $1${lock ? ' for update' : ''}`,
    [orgId],
  )
  const row = rows[0]
  const fallback = tierCatalog().defaultTier.limits[limit]
  const value = row ? (row.in_force ? row.value : fallback) : fallback
  return value > 0 ? value : null
}
