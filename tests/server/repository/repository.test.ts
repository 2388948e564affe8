import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { makeCsv, makeDocx, makePdf, makeXlsx } from '../../fixtures/documents.ts'
import { streamedBody } from '../../support/streams.ts'
import { call, get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { createTestApp } from '../support.ts'

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any

let ctx: TestApp & { dataDir: string }
let server: Server
let sitePort = 0
let siteHits = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    siteHits += 1
    if (req.url === '/policy.html') {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(
        '<html><head><title>Acme Policy</title></head><body><nav>menu</nav><main><h2>Retention</h2><p>Customer logs are retained for exactly 400 days before deletion.</p></main></body></html>',
      )
      return
    }
    if (req.url === '/to-loopback') {
      res.writeHead(302, { location: 'http://127.0.0.1:9/secret' })
      res.end()
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  sitePort = (server.address() as { port: number }).port
  ctx = (await createTestApp({
    jobs: true,
    urlFetchAllow: [`127.0.0.1:${sitePort}`],
    maxUploadMb: 2,
  })) as typeof ctx
})
afterAll(async () => {
  await ctx.close()
  server.close()
})

async function member(orgId?: number, role: Role = 'approver') {
  const fixture = await insertUser(ctx.database, { role, orgId })
  const session = await signIn(ctx, fixture.email)
  return { ...fixture, token: session.access }
}

async function upload(
  token: string | undefined,
  files: { name: string; data: Buffer }[],
  tags?: string,
) {
  const form = new FormData()
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)]), file.name)
  if (tags) form.append('tags', tags)
  const res = await ctx.app.request(apiPath(paths.files.upload), {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: res.status, body: (await res.json()) as Body }
}

async function waitFor(token: string, id: number, status = 'ready') {
  for (let i = 0; i < 200; i++) {
    const res = await get(ctx, paths.files.get(id), token)
    if (res.body.status === status || (res.body.status === 'failed' && status !== 'failed'))
      return res.body
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`file ${id} never became ${status}`)
}

describe('repository', () => {
  it('uploads three kinds, ingests them through the job, and finds their sentences', async () => {
    const user = await member()
    const pdf = await makePdf([
      ['Our datacentres in Frankfurt run on renewable power.'],
      ['Badge access is logged at every door.'],
    ])
    const docx = makeDocx([
      { heading: 'Encryption' },
      { paragraph: 'Laptops use full-disk encryption with FileVault or BitLocker.' },
    ])
    const xlsx = await makeXlsx([
      {
        question: 'Do you enforce MFA for administrators?',
        answer: 'Yes',
        comment: 'Hardware keys',
      },
    ])
    const res = await upload(
      user.token,
      [
        { name: 'Security overview.pdf', data: pdf },
        { name: 'Handbook.docx', data: docx },
        { name: 'Past answers.xlsx', data: xlsx },
      ],
      'policies, SOC 2,policies',
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.files.map((f: Body) => [f.name, f.kind])).toEqual([
      ['Security overview.pdf', 'pdf'],
      ['Handbook.docx', 'docx'],
      ['Past answers.xlsx', 'xlsx'],
    ])
    for (const file of res.body.files) expect(['queued', 'processing']).toContain(file.status)
    expect(res.body.files[0].tags).toEqual(['policies', 'SOC 2'])
    for (const file of res.body.files) {
      const ready = await waitFor(user.token, file.id)
      expect(ready.status, ready.error).toBe('ready')
      expect(ready.passages).toBeGreaterThan(0)
    }
    const search = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=${encodeURIComponent('badge access logged')}`,
      user.token,
    )
    expect(search.status).toBe(200)
    const top = search.body.results[0]
    expect(top).toMatchObject({
      kind: 'passage',
      file_id: res.body.files[0].id,
      source: { name: 'Security overview.pdf', kind: 'pdf', location: { page: 2 } },
    })
    expect(top.snippet).toContain('<mark>')
    const list = await get(ctx, `${paths.files.list}?kind=docx`, user.token)
    expect(list.body.count).toBe(1)
    // pages carry the whole count, also the page past the end
    for (const [page, names] of [
      [1, ['Past answers.xlsx', 'Handbook.docx']],
      [2, ['Security overview.pdf']],
      [3, []],
    ] as const) {
      const paged = await get(ctx, `${paths.files.list}?page=${page}&page_size=2`, user.token)
      expect(paged.status).toBe(200)
      expect(paged.body.count).toBe(3)
      expect(paged.body.results.map((f: Body) => f.name).sort()).toEqual([...names].sort())
    }
    const stats = await get(ctx, paths.account.fileStats, user.token)
    expect(stats.body).toMatchObject({ total: { count: 3 }, max_repository: 50, remaining: 47 })
    // download as an attachment with the original bytes (UP8)
    const download = await ctx.app.request(apiPath(paths.files.download(res.body.files[0].id)), {
      headers: { authorization: `Bearer ${user.token}` },
    })
    expect(download.headers.get('content-disposition')).toContain(
      'attachment; filename="Security overview.pdf"',
    )
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true)
  })

  it('UP8: an uploaded HTML page downloads as an attachment with nosniff, never as HTML', async () => {
    const user = await member()
    const res = await upload(user.token, [
      {
        name: 'evil page.html',
        data: Buffer.from('<html><body><script>alert(1)</script>Hi</body></html>'),
      },
    ])
    expect(res.status).toBe(201)
    const download = await ctx.app.request(apiPath(paths.files.download(res.body.files[0].id)), {
      headers: { authorization: `Bearer ${user.token}` },
    })
    expect(download.headers.get('content-type')).toBe('application/octet-stream')
    expect(download.headers.get('x-content-type-options')).toBe('nosniff')
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="evil page.html"; filename\*=UTF-8''evil%20page.html$/,
    )
  })

  it('UP1: a PDF named .xlsx and an executable are refused with 415, and nothing is stored', async () => {
    const user = await member()
    const pdf = await makePdf([['x']])
    const mismatch = await upload(user.token, [
      { name: 'ok.csv', data: makeCsv([{ question: 'Q?', answer: 'A' }]) },
      { name: 'answers.xlsx', data: pdf },
    ])
    expect(mismatch.status).toBe(415)
    expect(mismatch.body.error).toBe(
      "answers.xlsx does not look like a XLSX file: its contents don't match its extension.",
    )
    const exe = await upload(user.token, [
      { name: 'setup.exe', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]) },
    ])
    expect(exe.status).toBe(415)
    expect(exe.body.error).toMatch(/not a supported file type/)
    expect((await get(ctx, paths.files.list, user.token)).body.count).toBe(0)
  })

  it('UP2: an upload declared larger than allowed gets 413 before its body is read', async () => {
    const user = await member()
    let pulled = 0
    const body = new ReadableStream({
      pull(controller) {
        pulled += 1
        if (pulled > 300) controller.close()
        else controller.enqueue(new Uint8Array(1024))
      },
    })
    const res = await ctx.app.request(apiPath(paths.files.upload), {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(200 * 1024 * 1024),
      },
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(pulled).toBeLessThanOrEqual(1)
    // the same without Content-Length (chunked): counted as it streams and cut off at the cap,
    // not read to its end (issue 14)
    const endless = streamedBody(200 * 1024 * 1024, 64 * 1024, 0x61)
    const chunked = await ctx.app.request(apiPath(paths.files.upload), {
      method: 'POST',
      body: endless.body,
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    // the cap is 20 files of 2 MB plus 1 MB: nowhere near the 200 MB offered
    expect(endless.pulled()).toBeLessThan(60 * 1024 * 1024)
    // a file over the per-file cap while streaming: 413 naming it
    const big = await upload(user.token, [
      { name: 'huge.txt', data: Buffer.alloc(3 * 1024 * 1024, 0x61) },
    ])
    expect(big.status).toBe(413)
    expect(big.body.error).toBe('huge.txt is larger than the 2 MB limit')
  })

  it('TI6: at N-1 of N files, 20 parallel uploads yield exactly one success', async () => {
    const user = await member()
    await ctx.database.pool.query('update licenses set max_repository = 1 where org_id = $1', [
      user.orgId,
    ])
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upload(user.token, [
          { name: `note-${i}.txt`, data: Buffer.from(`Note ${i} about encryption keys.`) },
        ]),
      ),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    const refused = results.filter((r) => r.status === 403)
    expect(refused).toHaveLength(19)
    expect(refused[0]?.body.error).toBe(
      'Your plan allows 1 files in the repository. Delete some files or upgrade your plan to add more.',
    )
  })

  it('adds a document by URL from an allowed local site; a blocked URL is refused (SS2)', async () => {
    const user = await member()
    const res = await post(
      ctx,
      paths.files.uploadUrls,
      { url: `http://127.0.0.1:${sitePort}/policy.html`, tags: ['web'] },
      user.token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const ready = await waitFor(user.token, res.body.id)
    expect(ready).toMatchObject({
      status: 'ready',
      name: 'Acme Policy',
      kind: 'html',
      source_url: `http://127.0.0.1:${sitePort}/policy.html`,
    })
    const found = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=logs+retained+400+days`,
      user.token,
    )
    expect(found.body.results[0]?.text).toContain('retained for exactly 400 days')
    const hits = siteHits
    for (const url of [
      'http://127.0.0.1/',
      'http://localhost:80/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://2130706433/',
      'ftp://example.com/x',
    ]) {
      const blocked = await post(ctx, paths.files.uploadUrls, { url }, user.token)
      expect(blocked.status, url).toBe(400)
    }
    // SS3: a redirect from the allowed site to loopback fails the file, and loopback is never reached
    const redirect = await post(
      ctx,
      paths.files.uploadUrls,
      { url: `http://127.0.0.1:${sitePort}/to-loopback` },
      user.token,
    )
    const failed = await waitFor(user.token, redirect.body.id, 'failed')
    expect(failed.error).toBe(
      'This address cannot be fetched: only public http and https sites are allowed',
    )
    expect(siteHits).toBe(hits + 1)
  })

  it('edits tags, reprocesses, deletes one and a batch', async () => {
    const user = await member()
    const res = await upload(user.token, [
      { name: 'a.txt', data: Buffer.from('Alpha text about firewalls.') },
      { name: 'b.md', data: Buffer.from('# B\n\nBeta text about VPNs.') },
      { name: 'c.csv', data: makeCsv([{ question: 'Gamma?', answer: 'Yes' }]) },
    ])
    const [a, b, c] = res.body.files
    const tagged = await post(
      ctx,
      paths.files.updateTags(a.id),
      { tags: [' Network ', 'network', 'ISO'] },
      user.token,
    )
    expect(tagged.body.tags).toEqual(['Network', 'ISO'])
    expect((await get(ctx, `${paths.files.list}?tag=iso`, user.token)).body.count).toBe(1)
    await waitFor(user.token, b.id)
    const again = await post(ctx, paths.files.reprocess(b.id), {}, user.token)
    expect(again.body.status).toBe('queued')
    expect((await waitFor(user.token, b.id)).status).toBe('ready')
    expect((await get(ctx, paths.files.delete(a.id), user.token)).body).toEqual({ deleted: 1 })
    const batch = await post(
      ctx,
      paths.files.batchDelete,
      { file_ids: [b.id, c.id, 999_999] },
      user.token,
    )
    expect(batch.body).toEqual({ deleted: 2 })
    expect((await get(ctx, paths.files.list, user.token)).body.count).toBe(0)
    expect(
      (await post(ctx, paths.files.batchDelete, { file_ids: [] }, user.token)).body.error,
    ).toBe('The request is not valid')
  })

  it('TI2: another organisation’s files are 404 and never appear in its lists, search or stats', async () => {
    const owner = await member()
    const canary = await upload(owner.token, [
      { name: 'canary.txt', data: Buffer.from('Zanzibar canary sentence about quokka rotation.') },
    ])
    const id = canary.body.files[0].id
    await waitFor(owner.token, id)
    const stranger = await member(undefined, 'admin')
    for (const [method, path] of [
      ['GET', paths.files.get(id)],
      ['GET', paths.files.download(id)],
      ['GET', paths.files.delete(id)],
      ['DELETE', paths.files.delete(id)],
      ['POST', paths.files.reprocess(id)],
      ['POST', paths.files.updateTags(id)],
    ] as const) {
      const res = await call(ctx, method, path, {
        token: stranger.token,
        body: method === 'POST' ? { tags: ['x'] } : undefined,
      })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
    expect(
      (await post(ctx, paths.files.batchDelete, { file_ids: [id] }, stranger.token)).body.deleted,
    ).toBe(0)
    expect((await get(ctx, paths.files.list, stranger.token)).body.count).toBe(0)
    expect(
      (await get(ctx, `${paths.knowledgeBase.search}?q=zanzibar+quokka`, stranger.token)).body
        .results,
    ).toEqual([])
    expect((await get(ctx, paths.account.fileStats, stranger.token)).body.total.count).toBe(0)
    expect((await get(ctx, paths.files.get(id), owner.token)).status).toBe(200)
  })

  it('TI1: anonymous callers get 401 on every repository call', async () => {
    for (const [method, path] of [
      ['GET', paths.files.list],
      ['POST', paths.files.uploadUrls],
      ['POST', paths.files.batchDelete],
      ['GET', paths.files.download(1)],
      ['GET', paths.account.fileStats],
      ['GET', paths.knowledgeBase.qa],
      ['GET', `${paths.knowledgeBase.search}?q=x`],
    ] as const) {
      expect(
        (await call(ctx, method, path, { body: method === 'POST' ? {} : undefined })).status,
        path,
      ).toBe(401)
    }
    expect((await upload(undefined, [{ name: 'a.txt', data: Buffer.from('x') }])).status).toBe(401)
  })
})
