import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { defaultLogFormat, LOG_FORMATS, type LogFormat } from './log-format.ts'

/**
 * Every setting is an environment variable, parsed once here. A bad value stops the start with a
 * message that names the variable; docs/configuration.md lists them all.
 */

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

const optionalString = z.preprocess(emptyToUndefined, z.string().optional())
const optionalUrl = (protocols: RegExp, message: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url({ message })
      .refine((value) => protocols.test(value), { message })
      .optional(),
  )

const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      message: 'must be one of true, false, 1, 0, yes, no',
    })
    .optional()
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
)

/** A whole number between `min` and `max`, `fallback` when unset. */
const wholeNumber = (min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number' })
      .int({ message: 'must be a whole number' })
      .min(min, { message: `must be at least ${min}` })
      .max(max, { message: `must be at most ${max}` })
      .default(fallback),
  )

export const configSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['production', 'development', 'test']).default('production'),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('0.0.0.0')),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a port number' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must be between 0 and 65535' })
      .max(65535, { message: 'must be between 0 and 65535' })
      .default(3000),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./data')),
  DATABASE_URL: optionalUrl(
    /^postgres(ql)?:\/\//,
    'must be a postgres:// or postgresql:// connection URL',
  ),
  DATABASE_POOL_SIZE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(500).default(10),
  ),
  /**
   * With an external database (DATABASE_URL): exit non-zero after it has been unreachable this
   * many seconds, for operators who prefer their supervisor to restart the process; 0 (the
   * default) never exits: the process answers 503 while the database is away and works again
   * once it is back. The embedded database is restarted by the server itself.
   */
  DATABASE_OUTAGE_EXIT_S: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(86_400).default(0),
  ),
  /** Live streams (questionnaire events, notifications) one person may hold open on one node. */
  STREAM_MAX_PER_PERSON: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(30),
  ),
  /** ... of them on one questionnaire (a tab each). */
  STREAM_MAX_PER_QUESTIONNAIRE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(10),
  ),
  /** ... of them on one session (one sign-in: a browser's tabs, or the extension). */
  STREAM_MAX_PER_SESSION: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(20),
  ),
  /** Live streams one node holds open in all, for everyone. */
  STREAM_MAX_PER_NODE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  ),
  PUBLIC_URL: optionalUrl(/^https?:\/\//, 'must be an http:// or https:// URL'),
  JWT_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  ),
  SMTP_URL: optionalUrl(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
  MAIL_TRANSPORT: z.preprocess(
    emptyToUndefined,
    z.enum(['log', 'smtp'], { message: 'must be log or smtp' }).default('log'),
  ),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().min(3).default('Quire <no-reply@localhost>'),
  ),
  LLM_BASE_URL: optionalUrl(/^https?:\/\//, 'must be an http:// or https:// URL'),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  EMBEDDING_MODEL: optionalString,
  EMBEDDING_BASE_URL: optionalUrl(/^https?:\/\//, 'must be an http:// or https:// URL'),
  EMBEDDING_API_KEY: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Readable lines (`pretty`) or JSON lines (`json`); unset: pretty on a terminal, else JSON. */
  LOG_FORMAT: z.preprocess(
    emptyToUndefined,
    z.enum(LOG_FORMATS, { message: 'must be pretty or json' }).optional(),
  ),
  WORKERS: booleanFlag,
  /** Behind a reverse proxy: take client addresses from X-Forwarded-For (for rate limits). */
  TRUST_PROXY: booleanFlag,
  /** Calls each API key may make per minute (issue 41), counted in each node. */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number' })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .default(600),
  ),
  /** Sign-in, registration and reset requests allowed per client address and minute. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number' })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .default(60),
  ),
  /** People one comment may mention; more are refused with 400 (issue 37). */
  MENTION_MAX_PEOPLE: wholeNumber(1, 50, 10),
  /** Comments (new ones and edits) one person may write a minute; past it 429. */
  COMMENTS_PER_MINUTE: wholeNumber(1, 10_000, 20),
  /** People one person may newly mention a minute, in all their comments; past it 429. */
  MENTIONS_PER_MINUTE: wholeNumber(1, 10_000, 30),
  /** Mention and comment emails a person gets as they come in one window; then one digest. */
  MAIL_DIGEST_AFTER: wholeNumber(1, 1_000, 3),
  /** That window, in minutes: the digest goes out when it ends. */
  MAIL_DIGEST_WINDOW_MINUTES: wholeNumber(1, 1_440, 10),
  /** Largest file accepted by an upload, in MB; bigger ones get 413 before they are read (UP2). */
  MAX_UPLOAD_MB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a number of megabytes' })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .max(2048, { message: 'must be at most 2048' })
      .default(50),
  ),
  /**
   * host:port pairs that URL fetching may reach although they are private or loopback, comma
   * separated. Empty by default; only tests that serve pages locally set it (SS1-SS4).
   */
  URL_FETCH_ALLOW: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, {
        message: 'must be a comma-separated list of host:port',
      })
      .optional()
      .transform((value) =>
        value ? value.split(',').map((entry) => entry.trim().toLowerCase()) : [],
      ),
  ),
  /** A parser gets this long per file before it is stopped and the file marked failed (UP7). */
  PARSER_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1000).max(600_000).default(30_000),
  ),
  /** Heap cap of a parser process, in MB (UP7). */
  PARSER_MEMORY_MB: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(64).max(8192).default(512),
  ),
  /** Resident-memory cap of a parser process, in MB: past it the process is killed (UP3, UP7). */
  PARSER_RSS_MB: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(128).max(16384).default(1024),
  ),
  /** Embedded PostgreSQL: durable writes. Tests turn this off for speed; never in production. */
  EMBEDDED_PG_FSYNC: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((value) => value === 'true'),
  ),
  /** Google sign-in: the OAuth client of the Google Cloud project (both set, or neither). */
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Google's issuer; only tests point it at a provider of their own. */
  GOOGLE_ISSUER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url({ message: 'must be an http:// or https:// URL' })
      .default('https://accounts.google.com'),
  ),
  /**
   * The DNS server that reads domain proofs (TXT records): `host` or `host:port` (an IPv6 address
   * in brackets with a port); the system's resolvers when empty.
   */
  DNS_RESOLVER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]+)(:\d{1,5})?$/, {
        message: 'must be an IP address, optionally with :port',
      })
      .optional(),
  ),
  /**
   * Browser extensions allowed to receive sign-in tokens (AS13), comma separated; the extension
   * this repository builds is always allowed.
   */
  EXTENSION_IDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*[a-p]{32}\s*(,\s*[a-p]{32}\s*)*$/, {
        message: 'must be a comma-separated list of 32-letter extension ids (a to p)',
      })
      .optional()
      .transform((value) => (value ? value.split(',').map((id) => id.trim()) : [])),
  ),
  /** License tiers (a copy of config/license-tiers.json); the shipped file when unset. */
  LICENSE_TIERS_FILE: optionalString,
  /** The checkout provider (Paddle): off by default, as the spec's flag says. */
  PADDLE_ENABLED: booleanFlag,
  PADDLE_ENVIRONMENT: z.preprocess(
    emptyToUndefined,
    z
      .enum(['sandbox', 'production'], { message: 'must be sandbox or production' })
      .default('sandbox'),
  ),
  /**
   * The instance's legal pages (issue 30): the operator's own terms and privacy policy, either
   * published elsewhere (TERMS_URL, PRIVACY_URL) or as Markdown files served here (TERMS_FILE,
   * PRIVACY_FILE); without them a plain default names who runs the instance.
   */
  TERMS_URL: optionalUrl(/^https?:\/\//, 'must be an http:// or https:// URL'),
  PRIVACY_URL: optionalUrl(/^https?:\/\//, 'must be an http:// or https:// URL'),
  TERMS_FILE: optionalString,
  PRIVACY_FILE: optionalString,
  /** Who runs this instance, and how to reach them, as the default legal pages say. */
  OPERATOR_NAME: optionalString,
  OPERATOR_EMAIL: z.preprocess(
    emptyToUndefined,
    z.string().email({ message: 'must be an email address' }).optional(),
  ),
  /** Paddle.js client-side token (public by design). */
  PADDLE_CLIENT_TOKEN: optionalString,
  /** Secret of the notification destination: webhook deliveries are verified with it. */
  PADDLE_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  ),
})

export type RawConfig = z.infer<typeof configSchema>
export type Config = Omit<RawConfig, 'JWT_SECRET' | 'PUBLIC_URL' | 'WORKERS' | 'LOG_FORMAT'> & {
  /** Absolute data directory. */
  DATA_DIR: string
  JWT_SECRET: string
  PUBLIC_URL: string
  /** Run job workers inside the API process (default true). */
  WORKERS: boolean
  LOG_FORMAT: LogFormat
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parses the environment, or throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env): RawConfig {
  const result = configSchema.safeParse(env)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)'
      return `  ${name}: ${issue.message}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  if (result.data.MAIL_TRANSPORT === 'smtp' && !result.data.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL: is required when MAIL_TRANSPORT=smtp',
    )
  }
  const llm = [result.data.LLM_BASE_URL, result.data.LLM_MODEL]
  if (llm.some(Boolean) && !llm.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_MODEL: LLM_BASE_URL and LLM_MODEL must be set together',
    )
  }
  if (
    result.data.EMBEDDING_MODEL &&
    !(result.data.EMBEDDING_BASE_URL ?? result.data.LLM_BASE_URL)
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  EMBEDDING_MODEL: needs EMBEDDING_BASE_URL (or LLM_BASE_URL) for its endpoint',
    )
  }
  if (Boolean(result.data.GOOGLE_CLIENT_ID) !== Boolean(result.data.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
    )
  }
  for (const name of ['TERMS_FILE', 'PRIVACY_FILE'] as const) {
    const file = result.data[name]
    if (file && !existsSync(file)) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: there is no file at ${file}`)
    }
  }
  if (result.data.PADDLE_ENABLED && !result.data.PADDLE_CLIENT_TOKEN) {
    throw new ConfigError(
      'Invalid configuration:\n  PADDLE_CLIENT_TOKEN: is required when PADDLE_ENABLED is on',
    )
  }
  return result.data
}

/**
 * Resolves the runtime configuration: makes DATA_DIR absolute and creates it, and generates the JWT
 * secret into DATA_DIR on first start when JWT_SECRET is unset, so that restarts keep sessions.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  stdoutIsTTY = Boolean(process.stdout.isTTY),
): Config {
  const raw = parseConfig(env)
  const dataDir = path.resolve(raw.DATA_DIR)
  mkdirSync(dataDir, { recursive: true })
  const WORKERS = env.WORKERS === undefined || env.WORKERS === '' ? true : raw.WORKERS
  return {
    ...raw,
    DATA_DIR: dataDir,
    JWT_SECRET: raw.JWT_SECRET ?? readOrCreateSecret(path.join(dataDir, 'jwt-secret')),
    PUBLIC_URL: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    WORKERS,
    LOG_FORMAT: raw.LOG_FORMAT ?? defaultLogFormat(stdoutIsTTY),
  }
}

/** Reads a secret file, creating it with 48 random bytes (mode 0600) when it does not exist. */
export function readOrCreateSecret(file: string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim()
    if (value.length >= 32) return value
  }
  const secret = randomBytes(48).toString('base64url')
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, `${secret}\n`, { mode: 0o600 })
  chmodSync(temp, 0o600)
  // rename is atomic: a crash never leaves a half-written secret behind
  renameSync(temp, file)
  return secret
}
