import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Paddle's webhook signature (WH1, WH2): the `Paddle-Signature` header is `ts=<unix seconds>;h1=<hex>`
 * (more than one h1 while a secret is rotated), where h1 is HMAC-SHA256 of `ts:rawBody` under the
 * notification destination's secret. The raw body is signed: a re-serialised body fails.
 */

/** Seconds a signature's timestamp may be away from now (Paddle's SDKs use 5). */
export const SIGNATURE_TOLERANCE_S = 5

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' }

export function parseSignatureHeader(header: string | undefined) {
  if (!header) return undefined
  let ts: number | undefined
  const h1: string[] = []
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((piece) => piece.trim())
    if (key === 'ts' && value && /^\d{1,12}$/.test(value)) ts = Number(value)
    else if (key === 'h1' && value && /^[0-9a-f]{64}$/i.test(value)) h1.push(value.toLowerCase())
  }
  return ts === undefined || h1.length === 0 ? undefined : { ts, h1 }
}

export const signPayload = (secret: string, ts: number, rawBody: string) =>
  createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest('hex')

/** Checks a delivery's signature against the secret at `nowMs`. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowMs: number,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' }
  const parsed = parseSignatureHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed' }
  if (Math.abs(nowMs / 1000 - parsed.ts) > SIGNATURE_TOLERANCE_S)
    return { ok: false, reason: 'stale' }
  const expected = Buffer.from(signPayload(secret, parsed.ts, rawBody), 'hex')
  // every h1 is compared, in constant time, so a rotated secret's signature passes too
  let matched = false
  for (const candidate of parsed.h1) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true
  }
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' }
}

/** The header a delivery signed with `secret` at `ts` carries (tests and the bench sign with it). */
export const signatureHeader = (secret: string, ts: number, rawBody: string) =>
  `ts=${ts};h1=${signPayload(secret, ts, rawBody)}`
