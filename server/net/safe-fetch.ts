import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent, type Dispatcher, request } from 'undici'
import { KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'

/**
 * Fetching a document by URL without reaching the server's own network (SS1-SS4): http and https
 * on ports 80 and 443 only, every redirect re-checked, and the address actually connected to
 * checked at connect time, so DNS rebinding cannot slip a private address in. Only exact
 * host:port pairs of the URL_FETCH_ALLOW setting are exempt.
 */

export type UrlFetchErrorCode =
  | 'blocked'
  | 'invalid_url'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'network'

export class UrlFetchError extends Error {
  override name = 'UrlFetchError'
  code: UrlFetchErrorCode
  constructor(code: UrlFetchErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

export type LookupFunction = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void

export interface SafeFetchOptions {
  allow?: string[]
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  lookup?: LookupFunction
  userAgent?: string
}

export interface FetchedDocument {
  finalUrl: string
  status: number
  contentType: string
  charset: string | null
  filename: string | null
  body: Buffer
}

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024

/** True for every address that is not public unicast: loopback, private, link-local, ... (SS2). */
export function isBlockedAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''))
  } catch {
    return true
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) return isBlockedAddress(v6.toIPv4Address().toString())
    const range = v6.range()
    // NAT64 and 6to4 embed an IPv4 address: judge the embedded one
    if (range === 'rfc6052' || range === 'rfc6145') {
      const bytes = v6.toByteArray().slice(12)
      return isBlockedAddress(bytes.join('.'))
    }
    if (range === '6to4') {
      const bytes = v6.toByteArray().slice(2, 6)
      return isBlockedAddress(bytes.join('.'))
    }
    return range !== 'unicast'
  }
  return parsed.range() !== 'unicast'
}

const blocked = () => new UrlFetchError('blocked', KNOWLEDGE_TEXTS.urlBlocked)

const hostKey = (url: URL) => {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return `${url.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`
}

/** The synchronous checks of a URL, before any DNS: scheme, credentials, port, literal hosts. */
export function checkUrl(
  raw: string,
  allow: string[] = [],
): { ok: true; url: URL } | { ok: false; error: UrlFetchError } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return {
      ok: false,
      error: new UrlFetchError(
        'invalid_url',
        'Enter a valid URL that starts with http:// or https://',
      ),
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: blocked() }
  if (url.username || url.password) return { ok: false, error: blocked() }
  if (allow.includes(hostKey(url))) return { ok: true, url }
  const port = url.port ? Number(url.port) : null
  if (port !== null && port !== 80 && port !== 443) return { ok: false, error: blocked() }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  ) {
    return { ok: false, error: blocked() }
  }
  // the WHATWG parser has already turned 2130706433, 0x7f000001 and 0177.0.0.1 into dotted form
  if (isIP(host) && isBlockedAddress(host)) return { ok: false, error: blocked() }
  return { ok: true, url }
}

/**
 * An undici dispatcher that resolves names itself and refuses to connect to any blocked address,
 * except the allowed host:port pairs (SS4: the check is on the address connected to).
 */
export function createGuardedAgent(
  options: { allow?: string[]; lookup?: LookupFunction; timeoutMs?: number } = {},
) {
  const allow = options.allow ?? []
  const resolver = options.lookup ?? (dnsLookup as unknown as LookupFunction)
  return new Agent({
    connect: {
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      lookup: (hostname, lookupOptions, callback) => {
        const respond = callback as unknown as (
          error: Error | null,
          address: string | LookupAddress[],
          family?: number,
        ) => void
        const wantsAll = (lookupOptions as { all?: boolean }).all === true
        resolver(hostname, { all: true }, (error, addresses) => {
          if (error) return respond(error, wantsAll ? [] : '', 4)
          const list = addresses ?? []
          const exempt = (address: string) =>
            allow.some(
              (entry) =>
                entry.startsWith(`${address}:`) || entry.startsWith(`${hostname.toLowerCase()}:`),
            )
          if (
            !list.length ||
            list.some((entry) => isBlockedAddress(entry.address) && !exempt(entry.address))
          ) {
            return respond(blocked(), wantsAll ? [] : '', 4)
          }
          const first = list[0] as LookupAddress
          return wantsAll ? respond(null, list) : respond(null, first.address, first.family)
        })
      },
    },
  })
}

function parseFilename(disposition: string | undefined, url: URL): string | null {
  if (disposition) {
    const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)
    if (star?.[1]) {
      try {
        return decodeURIComponent(star[1].trim())
      } catch {
        // fall through
      }
    }
    const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)
    if (plain?.[1]) return plain[1].trim()
  }
  const last = url.pathname.split('/').filter(Boolean).pop()
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

const header = (headers: Dispatcher.ResponseData<unknown>['headers'], name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

export async function safeFetch(
  raw: string,
  options: SafeFetchOptions = {},
): Promise<FetchedDocument> {
  const allow = options.allow ?? []
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const maxRedirects = options.maxRedirects ?? 5
  const agent = createGuardedAgent({ allow, lookup: options.lookup, timeoutMs })
  const signal = AbortSignal.timeout(timeoutMs)
  const timeoutError = () =>
    new UrlFetchError('timeout', `The site did not answer within ${Math.round(timeoutMs / 1000)} s`)
  try {
    let current = raw
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const checked = checkUrl(current, allow)
      if (!checked.ok) throw checked.error
      const url = checked.url
      let response: Dispatcher.ResponseData<unknown>
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: agent,
          signal,
          maxRedirections: 0,
          headers: {
            'user-agent': options.userAgent ?? 'Quire/1 (+document fetcher)',
            accept: 'text/html,application/xhtml+xml,application/pdf,text/plain,*/*;q=0.8',
            'accept-encoding': 'identity',
          },
        } as Parameters<typeof request>[1])
      } catch (error) {
        if (error instanceof UrlFetchError) throw error
        const cause = (error as { cause?: unknown }).cause
        if (cause instanceof UrlFetchError) throw cause
        if (signal.aborted) throw timeoutError()
        throw new UrlFetchError('network', 'The site could not be reached')
      }
      const { statusCode, headers, body } = response
      if (statusCode >= 300 && statusCode < 400 && header(headers, 'location')) {
        await body.dump().catch(() => undefined)
        current = new URL(String(header(headers, 'location')), url).toString()
        continue
      }
      if (statusCode >= 400) {
        await body.dump().catch(() => undefined)
        throw new UrlFetchError(
          'http_status',
          `The site answered ${statusCode}${STATUS_TEXT[statusCode] ? ` ${STATUS_TEXT[statusCode]}` : ''}`,
        )
      }
      const length = Number(header(headers, 'content-length') ?? Number.NaN)
      const tooLarge = () =>
        new UrlFetchError(
          'too_large',
          `The page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
        )
      if (Number.isFinite(length) && length > maxBytes) {
        body.destroy()
        throw tooLarge()
      }
      const chunks: Buffer[] = []
      let total = 0
      try {
        for await (const chunk of body) {
          total += (chunk as Buffer).length
          if (total > maxBytes) {
            body.destroy()
            throw tooLarge()
          }
          chunks.push(chunk as Buffer)
        }
      } catch (error) {
        if (error instanceof UrlFetchError) throw error
        if (signal.aborted) throw timeoutError()
        throw new UrlFetchError('network', 'The connection was interrupted')
      }
      const type = String(header(headers, 'content-type') ?? '')
      const [media = '', ...params] = type.split(';')
      const charset =
        params.map((p) => /charset\s*=\s*"?([^";]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null
      return {
        finalUrl: url.toString(),
        status: statusCode,
        contentType: media.trim().toLowerCase(),
        charset,
        filename: parseFilename(header(headers, 'content-disposition') as string | undefined, url),
        body: Buffer.concat(chunks),
      }
    }
    throw new UrlFetchError('network', 'The site redirected too many times')
  } finally {
    await agent.close().catch(() => undefined)
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}
