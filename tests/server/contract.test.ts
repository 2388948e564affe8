import { describe, expect, it } from 'vitest'
import { NO_REFRESH_ON_401, paths } from '../../contract/paths.ts'

function collect(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node)
  else if (typeof node === 'function') out.push((node as (...a: unknown[]) => string)(7, 9))
  else if (node && typeof node === 'object')
    for (const value of Object.values(node)) collect(value, out)
  return out
}

describe('API contract paths', () => {
  const all = collect(paths)

  it('lists every call of spec section 7 once, as absolute paths ending in a slash', () => {
    expect(all.length).toBeGreaterThanOrEqual(90)
    expect(new Set(all).size).toBe(all.length)
    for (const path of all) {
      expect(path).toMatch(/^\//)
      if (path !== paths.health) expect(path, path).toMatch(/\/$/)
    }
  })

  it('puts registration at POST /api/v1/admin/register/', () => {
    expect(paths.auth.register).toBe('/admin/register/')
  })

  it('builds id paths with the id encoded', () => {
    expect(paths.questionnaires.selectAnswer(3, 4)).toBe(
      '/filler/questionnaires/questions/3/answers/4/select/',
    )
    expect(paths.files.download('a/b')).toBe('/files/a%2Fb/download/')
  })

  it('never refreshes on a 401 from login, register, token refresh and social login', () => {
    expect(NO_REFRESH_ON_401).toEqual(
      expect.arrayContaining([
        paths.auth.login,
        paths.auth.register,
        paths.auth.tokenRefresh,
        paths.auth.googleStart,
        paths.auth.googleCallback,
      ]),
    )
  })
})
