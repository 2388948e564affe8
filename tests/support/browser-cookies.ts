import { apiCall } from './api-call.ts'

interface RequestingApp {
  request(path: string, init?: RequestInit): Response | Promise<Response>
}

/**
 * A browser's cookie jar in front of the in-process app: what the server sets (the sign-in
 * binding cookie) goes with every later request of this browser, as a real one would send it.
 * Two of them are two browsers: the victim's and the attacker's.
 */
export function cookieBrowser(getApp: () => RequestingApp) {
  const jar = new Map<string, string>()
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')

  async function request(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set('cookie', cookieHeader())
    const res = await getApp().request(path, { ...init, headers })
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
    }
    return res
  }

  /** A JSON call to the API (path without /api/v1), with this browser's cookies. */
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(request, method, path, { body, token })

  return {
    request,
    call,
    get: (path: string, token?: string) => call('GET', path, undefined, token),
    post: (path: string, body: unknown = {}, token?: string) => call('POST', path, body, token),
    /** The cookies this browser holds. */
    cookies: () => new Map(jar),
    clear: () => jar.clear(),
  }
}

export type CookieBrowser = ReturnType<typeof cookieBrowser>
