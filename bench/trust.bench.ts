import { rmSync } from 'node:fs'
import autocannon from 'autocannon'
import { apiPath, paths } from '../contract/paths.ts'
import { percentile, round, signedUpOverHttp, startServer, tempDataDir } from './support.ts'

/**
 * Issue 40's budgets, on the real server over loopback:
 * - the trust centre's public page as HTML (`/trust/{slug}`), 100 connections for 10 s, each
 *   request from its own address (TRUST_PROXY, so that the per-address limit is the one a crowd
 *   of visitors meets, not one client's); budget p95 < 50 ms;
 * - the ask box (`public/trust/{slug}/ask/`) over 40 published Q&A items, 10 workers asking in
 *   turn for 10 s, each from its own address; budget p95 < 300 ms.
 */
const PASSWORD = 'Bench-password-of-the-trust-centre-1'
const BUDGETS = { page_p95_ms: 50, ask_p95_ms: 300 }

const dataDir = tempDataDir()
const server = await startServer(dataDir, {
  TRUST_PROXY: 'true',
  AUTH_RATE_LIMIT_PER_MINUTE: '10000',
  MAIL_TRANSPORT: 'log',
})
const call = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(`${server.url}${apiPath(path)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
let address = 0
const nextAddress = () => {
  address += 1
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`
}

try {
  const { access, db } = await signedUpOverHttp(server, dataDir, {
    email: 'trust-bench@example.com',
    password: PASSWORD,
    organization: 'Trust Bench',
  })
  await db.end()
  const topics = ['backups', 'encryption at rest', 'access reviews', 'incident response', 'logging']
  for (let i = 0; i < 40; i += 1) {
    const topic = topics[i % topics.length]
    const item = (await call(
      paths.knowledgeBase.qa,
      {
        question: `Do you have a documented policy for ${topic} (control ${i})?`,
        answer: `Yes. Our ${topic} policy ${i} is reviewed every year and approved by the CISO.`,
      },
      access,
    )) as { id: number }
    await call(paths.trust.qa(item.id), { visibility: 'public' }, access)
  }
  await call(
    paths.trust.settings,
    { slug: 'bench', published: true, overview: 'Security at Trust Bench.' },
    access,
  )

  const page = await autocannon({
    url: `${server.url}/trust/bench`,
    connections: 100,
    duration: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': nextAddress() },
        }),
      },
    ],
  })

  const asked: number[] = []
  let askErrors = 0
  const deadline = performance.now() + 10_000
  await Promise.all(
    Array.from({ length: 10 }, async (_, worker) => {
      let n = 0
      while (performance.now() < deadline) {
        const topic = topics[(worker + n) % topics.length]
        n += 1
        const started = performance.now()
        const res = await fetch(`${server.url}${apiPath(paths.publicTrust.ask('bench'))}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
          body: JSON.stringify({ question: `Do you have a documented ${topic} policy?` }),
        })
        await res.arrayBuffer()
        if (res.status === 200) asked.push(performance.now() - started)
        else askErrors += 1
      }
    }),
  )
  const askP95 = round(percentile(asked, 0.95), 1)
  console.log(
    JSON.stringify({
      bench: 'trust',
      page_requests_per_s: round(page.requests.average, 0),
      page_p50_ms: page.latency.p50,
      page_p97_5_ms: page.latency.p97_5,
      page_non_2xx: page.non2xx,
      ask_calls: asked.length,
      ask_p50_ms: round(percentile(asked, 0.5), 1),
      ask_p95_ms: askP95,
      ask_errors: askErrors,
      budgets: BUDGETS,
      within_budget:
        page.latency.p97_5 < BUDGETS.page_p95_ms &&
        page.non2xx === 0 &&
        askP95 < BUDGETS.ask_p95_ms &&
        askErrors === 0,
    }),
  )
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
