import { rmSync } from 'node:fs'
import { createKnowledgeService } from '../server/modules/knowledge/service.ts'
import { benchDatabase, round, tempDataDir, zipfSampler } from './support.ts'

/**
 * Search latency over 50,000 generated passages of one organisation (plus another organisation's
 * 10,000 that must stay invisible): p50/p95 of GET knowledge-base/search/'s service call.
 */
const WORDS =
  'access audit backup encryption key rotation incident response vendor risk policy training password multi factor authentication logging monitoring retention deletion firewall network segmentation vulnerability scanning penetration test disaster recovery continuity privacy consent data centre region cloud provider subprocessor contract review approval change management release pipeline secrets storage laptop endpoint antivirus patching asset inventory classification'.split(
    ' ',
  )
let seed = 42
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}
// Text shaped like English: about 45% stop words (which full-text search drops), the rest content
// words with a Zipf distribution over a 10,000-word vocabulary in which the domain terms above are
// fairly common. Uniform draws from a small vocabulary would make every passage match every
// query, which no real corpus does.
const STOP =
  'the of and to a in is that for it as with be on by this are or we our all at from an'.split(' ')
// domain terms sit at ranks 100-170, as 'encryption' or 'retention' do in real policies
const CONTENT = [
  ...Array.from({ length: 100 }, (_, i) => `common${i.toString(36)}`),
  ...WORDS,
  ...Array.from({ length: 10_000 - 100 - WORDS.length }, (_, i) => `term${i.toString(36)}`),
]
const contentWord = zipfSampler(CONTENT, random)
const sentence = (n: number) =>
  Array.from({ length: n }, () =>
    random() < 0.45 ? (STOP[Math.floor(random() * STOP.length)] as string) : contentWord(),
  ).join(' ')
const query = (n: number) => Array.from({ length: n }, contentWord).join(' ')

const dataDir = tempDataDir()
const { database, stop } = await benchDatabase(dataDir, 4)
try {
  const { pool } = database
  const orgs = await pool.query<{ id: string }>(
    `insert into organizations (name) values ('Bench'), ('Other') returning id`,
  )
  const [org, other] = orgs.rows.map((r) => Number(r.id))
  for (const [orgId, count] of [
    [org, 50_000],
    [other, 10_000],
  ] as const) {
    const files = await pool.query<{ id: string }>(
      `insert into repository_files (org_id, name, kind, mime, status) select $1, 'doc-' || g || '.pdf', 'pdf', 'application/pdf', 'ready' from generate_series(1, 50) g returning id`,
      [orgId],
    )
    const fileIds = files.rows.map((r) => Number(r.id))
    for (let start = 0; start < count; start += 5_000) {
      const texts = Array.from({ length: 5_000 }, () => `${sentence(60)}.`)
      await pool.query(
        `insert into file_passages (org_id, file_id, ordinal, text, location)
         select $1, ($2::bigint[])[1 + (t.n % 50)], t.n, t.text, jsonb_build_object('page', 1 + t.n % 40)
           from unnest($3::text[]) with ordinality as t(text, n)`,
        [orgId, fileIds, texts],
      )
    }
  }
  await pool.query('analyze')
  const service = createKnowledgeService({ database })
  const queries = Array.from({ length: 200 }, (_, i) =>
    i % 4 === 0 ? `How do you handle ${query(3)}?` : query(2 + (i % 3)),
  )
  for (const q of queries.slice(0, 20))
    await service.search(org as number, { q, source: 'all', limit: 10 })
  const times: number[] = []
  for (const q of queries) {
    const t = performance.now()
    await service.search(org as number, { q, source: 'all', limit: 10 })
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const at = (p: number) =>
    round(times[Math.min(times.length - 1, Math.floor(times.length * p))] ?? 0)
  console.log(
    JSON.stringify({
      bench: 'search',
      passages: 50_000,
      queries: times.length,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      max_ms: at(1),
      budget_p95_ms: 20,
    }),
  )
} finally {
  await stop()
  rmSync(dataDir, { recursive: true, force: true })
}
