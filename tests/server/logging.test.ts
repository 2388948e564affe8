import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../server/logger.ts'
import { createTestDatabase } from '../support/db.ts'

/**
 * Issue 14: a failed statement is logged with its type, message and stack, never with the values
 * it carried (drizzle's 'params: ...', PostgreSQL's detail 'Key (email)=(...)').
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

function capture() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { logger: createLogger('info', stream), text: () => lines.join('') }
}

describe('logs of failed statements', () => {
  it('keep the statement and the error, and drop the values', async () => {
    const secret = 'private.person@example.com'
    await database.db.execute(sql`create table people (email text primary key)`)
    await database.db.execute(sql`insert into people (email) values (${secret})`)
    const failure = await database.db
      .execute(sql`insert into people (email) values (${secret})`)
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(failure).toBeInstanceOf(Error)
    // what would have leaked: the value is in drizzle's message and PostgreSQL's detail
    const raw = JSON.stringify({
      message: (failure as Error).message,
      cause: String((failure as { cause?: { detail?: string } }).cause?.detail),
    })
    expect(raw).toContain(secret)
    const { logger, text } = capture()
    logger.error({ err: failure }, 'unhandled error')
    const logged = text()
    expect(logged).not.toContain(secret)
    expect(logged).toContain('insert into people')
    expect(logged).toContain('duplicate key value violates unique constraint')
    expect(logged).toContain('    at ')
  })
})
