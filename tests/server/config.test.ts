import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseConfig } from '../../server/config.ts'
import { embeddingOptionsOf } from '../../server/runtime.ts'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-config-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = parseConfig({})
    expect(config.PORT).toBe(3000)
    expect(config.DATA_DIR).toBe('./data')
    expect(config.MAIL_TRANSPORT).toBe('log')
    expect(config.DATABASE_URL).toBeUndefined()
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ MAIL_TRANSPORT: 'carrier-pigeon' }, 'MAIL_TRANSPORT'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MAIL_TRANSPORT: 'smtp' }, 'SMTP_URL'],
    [{ LLM_BASE_URL: 'http://localhost:11434/v1' }, 'LLM_MODEL'],
    [{ EMBEDDING_MODEL: 'nomic-embed-text' }, 'EMBEDDING_MODEL'],
    [{ EMBEDDING_MODEL: 'nomic-embed-text', EMBEDDING_BASE_URL: 'ftp://x' }, 'EMBEDDING_BASE_URL'],
  ])('a bad value stops the start with a message naming the variable: %o', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    expect(() => parseConfig(env)).toThrow(new RegExp(`\\b${name}\\b`))
  })

  it('takes an embedding model on its own endpoint or on the language model one', () => {
    expect(
      embeddingOptionsOf(
        parseConfig({
          EMBEDDING_MODEL: 'nomic-embed-text',
          EMBEDDING_BASE_URL: 'http://localhost:11434/v1',
        }),
      ),
    ).toEqual({
      settings: {
        baseUrl: 'http://localhost:11434/v1',
        apiKey: undefined,
        model: 'nomic-embed-text',
      },
    })
    expect(
      embeddingOptionsOf(
        parseConfig({
          LLM_BASE_URL: 'https://api.example.com/v1',
          LLM_MODEL: 'm',
          LLM_API_KEY: 'k',
          EMBEDDING_MODEL: 'e',
        }),
      )?.settings,
    ).toEqual({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', model: 'e' })
    expect(embeddingOptionsOf(parseConfig({}))).toBeUndefined()
  })

  it('treats empty variables as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000)
  })

  it('generates the JWT secret into DATA_DIR on first start and keeps it', () => {
    const dir = tempDir()
    const first = loadConfig({ DATA_DIR: dir })
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32)
    const file = path.join(dir, 'jwt-secret')
    expect(readFileSync(file, 'utf8').trim()).toBe(first.JWT_SECRET)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(loadConfig({ DATA_DIR: dir }).JWT_SECRET).toBe(first.JWT_SECRET)
  })

  it('uses JWT_SECRET when set and writes nothing', () => {
    const dir = tempDir()
    const secret = 's'.repeat(40)
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret }).JWT_SECRET).toBe(secret)
    expect(() => statSync(path.join(dir, 'jwt-secret'))).toThrow()
  })

  it('derives PUBLIC_URL from the port and strips a trailing slash', () => {
    const dir = tempDir()
    expect(loadConfig({ DATA_DIR: dir, PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100')
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://quire.example.com/' }).PUBLIC_URL).toBe(
      'https://quire.example.com',
    )
  })
})
