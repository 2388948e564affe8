import pino from 'pino'

export type Logger = pino.Logger

/** JSON lines; never a token: credentials and token-bearing fields are redacted wherever they sit. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'quire' },
      timestamp: pino.stdTimeFunctions.isoTime,
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
