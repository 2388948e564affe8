/**
 * What the popup, the side panel and the background share: the Quire address, the tokens the
 * hand-off gave (chrome.storage.local), calls to the API with one refresh on 401, and the
 * hand-off itself.
 */

export const DEFAULT_SERVER = 'http://localhost:3000'
/** The spec's hand-off lifetime (expires_in); the access token is refreshed before it anyway. */
export const EXPIRES_IN_S = 7200

export interface Stored {
  server: string
  access?: string
  refresh?: string
  email?: string
  state?: string | null
}

export async function settings(): Promise<Stored> {
  const stored = (await chrome.storage.local.get([
    'server',
    'access',
    'refresh',
    'email',
    'state',
  ])) as Partial<Stored>
  return { ...stored, server: stored.server || DEFAULT_SERVER }
}

export async function setServer(address: string) {
  const url = new URL(address)
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('Use an http or https address')
  const server = url.origin
  await chrome.storage.local.set({ server })
  return server
}

/** The address this extension's hand-off comes back to (AS13: exactly this). */
export const redirectUri = () => chrome.runtime.getURL('connected.html')

/** Opens Quire's /extension/auth with a fresh state; the background catches the return. */
export async function connect() {
  const { server } = await settings()
  const state = crypto.randomUUID()
  await chrome.storage.local.set({ state })
  const url = new URL('/extension/auth', server)
  url.searchParams.set('redirect_uri', redirectUri())
  url.searchParams.set('state', state)
  url.searchParams.set('extension_id', chrome.runtime.id)
  await chrome.tabs.create({ url: url.href })
}

/** Reads a hand-off address; stores the tokens when its state is the one this extension sent. */
export async function receive(address: string) {
  const url = new URL(address)
  if (`${url.origin}${url.pathname}` !== redirectUri()) return false
  const fragment = new URLSearchParams(url.hash.slice(1))
  const access = fragment.get('access_token')
  const refresh = fragment.get('refresh_token')
  const { state } = await settings()
  if (!access || !refresh || !state || fragment.get('state') !== state) return false
  await chrome.storage.local.set({ access, refresh, state: null, receivedAt: Date.now() })
  await profile().catch(() => null)
  return true
}

async function refreshTokens() {
  const { server, refresh } = await settings()
  if (!refresh) return false
  const res = await fetch(new URL('/api/v1/admin/token/refresh/', server), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh }),
  })
  if (!res.ok) {
    await chrome.storage.local.remove(['access', 'refresh', 'email'])
    return false
  }
  const body = (await res.json()) as { access: string; refresh?: string }
  await chrome.storage.local.set({ access: body.access, refresh: body.refresh ?? refresh })
  return true
}

/** The session is over (its refresh was refused): the person connects again. */
export class SessionExpired extends Error {
  constructor() {
    super('Your Quire session has ended. Connect again from the extension’s button.')
    this.name = 'SessionExpired'
  }
}

/** A call to the API with the stored access token, refreshed once on a 401. */
// biome-ignore lint/suspicious/noExplicitAny: each caller reads the answer of its own call
export async function api<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const send = async () => {
    const { server, access } = await settings()
    return fetch(new URL(`/api/v1${path}`, server), {
      ...init,
      headers: {
        ...(init.headers ?? {}),
        ...(access ? { authorization: `Bearer ${access}` } : {}),
      },
    })
  }
  let res = await send()
  if (res.status === 401) {
    if (!(await refreshTokens())) throw new SessionExpired()
    res = await send()
    if (res.status === 401) throw new SessionExpired()
  }
  if (!res.ok) {
    const body = await res.json().catch(() => ({}))
    throw new Error(body.error || body.msg || `Quire answered ${res.status}`)
  }
  return res.json()
}

/** The connected account (its email is kept for the popup). */
export async function profile() {
  const body = await api('/admin/profile/')
  await chrome.storage.local.set({ email: body.user.email })
  return body
}

/** Ends the extension's session at Quire and forgets the tokens. */
export async function disconnect() {
  const { server, access, refresh } = await settings()
  if (access || refresh) {
    await fetch(new URL('/api/v1/logout/', server), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(access ? { authorization: `Bearer ${access}` } : {}),
      },
      body: JSON.stringify({ refresh }),
    }).catch(() => null)
  }
  await chrome.storage.local.remove(['access', 'refresh', 'email', 'state'])
}

/** Knowledge-base search: approved answers, items and document passages. */
export async function search(q: string): Promise<SearchHit[]> {
  const body = await api<{ results: SearchHit[] }>(
    `/knowledge-base/search/?${new URLSearchParams({ q, limit: '10' })}`,
  )
  return body.results
}

export interface SearchHit {
  /** Unique across kinds: `passage:12`, `qa:3`, `data:7`. */
  id: string
  text: string
  source: { name: string; location?: { page?: number } | null }
}

/** The text copied for a result: the answer, then where it comes from. */
export function citationText(result: SearchHit) {
  const place = result.source.location?.page ? `, page ${result.source.location.page}` : ''
  return `${result.text}\n\nSource: ${result.source.name}${place}`
}
