import pino from 'pino'

export type Logger = pino.Logger

/** Fields of database errors that carry the values of a statement (emails, answers, names). */
const VALUE_FIELDS = new Set(['params', 'parameters', 'values', 'detail', 'where'])

/**
 * Errors are logged with their type, message, code and stack, but never the values of a failed
 * statement: drizzle puts the parameters in its message ('Failed query: ... params: ...') and
 * PostgreSQL its `detail` ('Key (email)=(...) already exists'); both can hold personal data.
 */
export function scrubError(error: unknown, depth = 0): unknown {
  if (!error || typeof error !== 'object' || depth > 4) return error
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>
  const clean: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(serialized)) {
    if (VALUE_FIELDS.has(key)) continue
    if (key === 'cause') clean.cause = scrubError((error as { cause?: unknown }).cause, depth + 1)
    else if (typeof value === 'string')
      clean[key] = value.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/g, '')
    else if (key === 'aggregateErrors' && Array.isArray(value)) clean[key] = value.length
    else clean[key] = value
  }
  return clean
}

/** JSON lines; never a token: credentials and token-bearing fields are redacted wherever they sit. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'quire' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: scrubError },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.new_password',
          '*.token',
          '*.access',
          '*.refresh',
          '*.access_token',
          '*.refresh_token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  )
}
