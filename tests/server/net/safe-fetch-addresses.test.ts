import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { checkUrl, isBlockedAddress, safeFetch } from '../../../server/net/safe-fetch.ts'
import {
  canaryHits,
  canaryPort,
  codeOf,
  fetchServers,
  PUBLIC_V4,
  scriptedLookup,
} from './safe-fetch-servers.ts'

// SS2: non-public addresses, in every spelling, are blocked; the other rules of safeFetch are in
// safe-fetch.test.ts.
fetchServers()

describe('SS2: non-public addresses are blocked', () => {
  it('SS2: loopback, private and metadata addresses in every spelling are blocked, with zero canary hits', async () => {
    const hosts = [
      '127.0.0.1',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '0.0.0.0',
      '0',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::127.0.0.1]',
      '2130706433',
      '0x7f000001',
      '0x7F.0.0.1',
      '0177.0.0.1',
      '127.1',
      '127.0.0.1.',
      '%31%32%37.0.0.1',
      '169.254.169.254',
      '[fd00:ec2::254]',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.255.254',
      '[fc00::1]',
      '[fdff:ffff::1]',
      '[fe80::1]',
      '[febf::1]',
      '224.0.0.1',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '[ff02::1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b::10.0.0.1]',
      '[64:ff9b:1::a00:1]',
      '[2002:7f00:1::]',
      '[2002:c0a8:101::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
    ]
    for (const host of hosts) {
      for (const url of [`http://${host}/`, `https://${host}/`, `http://${host}:${canaryPort}/`]) {
        const checked = checkUrl(url)
        expect(checked.ok, url).toBe(false)
        if (!checked.ok) expect(checked.error.message).toBe(KNOWLEDGE_TEXTS.urlBlocked)
        expect(await codeOf(safeFetch(url, { timeoutMs: 2000 })), url).toBe('blocked')
      }
    }
    // the same addresses reached through a DNS name are refused at connect time
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '169.254.169.254', '::ffff:7f00:1']) {
      const lookup = scriptedLookup([[address]])
      expect(checkUrl('http://innocent.example/').ok).toBe(true)
      expect(await codeOf(safeFetch('http://innocent.example/', { lookup })), address).toBe(
        'blocked',
      )
      expect(lookup.calls).toBe(1)
    }
    expect(canaryHits).toBe(0)
  })

  it('SS2: isBlockedAddress — loopback, private, link-local, CGNAT, special and embedded forms', () => {
    for (const address of [
      '127.0.0.1',
      '0.0.0.0',
      '10.255.255.255',
      '100.64.0.0',
      '169.254.169.254',
      '172.16.0.0',
      '192.168.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:0:a00:1',
      '::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:a00:1::',
      'fc00::',
      'fe80::1%eth0',
      'fec0::1',
      'ff00::',
      '2001:db8::1',
      'not an address',
      '',
      'localhost',
    ]) {
      expect(isBlockedAddress(address), address).toBe(true)
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      PUBLIC_V4,
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '2a00:1450:4001:82b::200e',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '[2606:4700::1]',
    ]) {
      expect(isBlockedAddress(address), address).toBe(false)
    }
  })

  // An oracle written independently of ipaddr.js: IANA's special-purpose IPv4 blocks.
  const SPECIAL_V4: [number, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.31.196.0', 24],
    ['192.52.193.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['192.175.48.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ].map(([base, bits]) => [toNumber(String(base)), Number(bits)])
  function toNumber(dotted: string) {
    return dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0)
  }
  const isSpecial = (n: number) =>
    SPECIAL_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === base / 2 ** (32 - bits))

  /** Every way a URL can spell one IPv4 address. */
  function spellings(n: number): string[] {
    const parts = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
    const [a, b, c, d] = parts as [number, number, number, number]
    const hex = (x: number) => `0x${x.toString(16)}`
    const oct = (x: number) => `0${x.toString(8)}`
    const h1 = ((a << 8) | b).toString(16)
    const h2 = ((c << 8) | d).toString(16)
    return [
      parts.join('.'),
      String(n),
      hex(n),
      `0${n.toString(8)}`,
      parts.map(hex).join('.'),
      parts.map(oct).join('.'),
      `${a}.${(b << 16) | (c << 8) | d}`,
      `${a}.${b}.${(c << 8) | d}`,
      `${parts.join('.')}.`,
      `[::ffff:${parts.join('.')}]`,
      `[::ffff:${h1}:${h2}]`,
      `[64:ff9b::${h1}:${h2}]`,
      `[2002:${h1}:${h2}::1]`,
    ]
  }

  const v4 = fc.integer({ min: 0, max: 2 ** 32 - 1 })
  const privateV4 = fc.oneof(
    fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((x) => 127 * 2 ** 24 + x),
    fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((x) => 10 * 2 ** 24 + x),
    fc.integer({ min: 0, max: 2 ** 20 - 1 }).map((x) => toNumber('172.16.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 16 - 1 }).map((x) => toNumber('192.168.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 16 - 1 }).map((x) => toNumber('169.254.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 22 - 1 }).map((x) => toNumber('100.64.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 24 - 1 }),
    fc.integer({ min: 0, max: 2 ** 28 - 1 }).map((x) => toNumber('224.0.0.0') + x),
  )

  it('SS2: property — random private/loopback addresses in random spellings are all blocked', () => {
    fc.assert(
      fc.property(privateV4, fc.nat(12), (n, which) => {
        const host = spellings(n)[which] as string
        const url = `http://${host}/`
        expect(checkUrl(url).ok, url).toBe(false)
        expect(isBlockedAddress(new URL(url).hostname), url).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('SS2: property — random addresses are blocked exactly when special, in every spelling', () => {
    fc.assert(
      fc.property(v4, fc.nat(12), (n, which) => {
        const host = spellings(n)[which] as string
        const url = `http://${host}/`
        const special = isSpecial(n)
        expect(isBlockedAddress(new URL(url).hostname), url).toBe(special)
        expect(checkUrl(url).ok, url).toBe(!special)
      }),
      { numRuns: 5000 },
    )
  })

  it('SS2: property — random v6 in fc00::/7, fe80::/10 and ff00::/8 are blocked; global unicast is not', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((x) => x.toString(16))
    const tail = fc.array(group, { minLength: 7, maxLength: 7 })
    const withPrefix = (min: number, max: number) =>
      fc
        .tuple(fc.integer({ min, max }), tail)
        .map(([p, rest]) => [p.toString(16), ...rest].join(':'))
    const blockedV6 = fc.oneof(
      withPrefix(0xfc00, 0xfdff),
      withPrefix(0xfe80, 0xfebf),
      withPrefix(0xff00, 0xffff),
    )
    fc.assert(
      fc.property(blockedV6, (address) => {
        expect(isBlockedAddress(address), address).toBe(true)
        expect(checkUrl(`https://[${address}]/`).ok, address).toBe(false)
      }),
    )
    // 2400::/12 (APNIC) and 2a00::/12 (RIPE): plain global unicast
    const publicV6 = fc.oneof(withPrefix(0x2400, 0x240f), withPrefix(0x2a00, 0x2a0f))
    fc.assert(
      fc.property(publicV6, (address) => {
        expect(isBlockedAddress(address), address).toBe(false)
        expect(checkUrl(`https://[${address}]/`).ok, address).toBe(true)
      }),
    )
  })
})
