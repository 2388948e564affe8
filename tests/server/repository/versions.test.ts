import { existsSync, utimesSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { createLogger } from '../../../server/logger.ts'
import {
  createRepositoryService,
  type VersionReadyHook,
} from '../../../server/modules/repository/service.ts'
import { createDiskStorage } from '../../../server/storage/index.ts'
import { makeDocx, makePdf } from '../../fixtures/documents.ts'
import { call, get, insertUser, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * Issue 28: documents have versions. A same-name upload (or Replace) makes a new version of the
 * file, keeping its id; the old version stays readable in the file's history.
 */

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any

const ctx = withTestApp({ jobs: true })

/** The policy as it was, and as it is: one cited sentence changes, another stays. */
const KEPT = 'Backups are encrypted with AES-256 and kept for thirty days.'
const OLD = 'Passwords are rotated every ninety days.'
const NEW =
  'Passwords are never rotated on a schedule; we follow NIST guidance on memorized secrets.'
const policy = (sentence: string) => makePdf([[KEPT], [sentence]], 'Access Control Policy')

async function member(orgId?: number, role: Role = 'admin') {
  const fixture = await insertUser(ctx.database, { role, orgId })
  const session = await signIn(ctx, fixture.email)
  return { ...fixture, token: session.access }
}

async function send(path: string, token: string, files: { name: string; data: Buffer }[]) {
  const form = new FormData()
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)]), file.name)
  const res = await ctx.app.request(apiPath(path), {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  })
  return { status: res.status, body: (await res.json()) as Body }
}
const upload = (token: string, name: string, data: Buffer) =>
  send(paths.files.upload, token, [{ name, data }])

async function download(path: string, token: string) {
  const res = await ctx.app.request(apiPath(path), {
    headers: { authorization: `Bearer ${token}` },
  })
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), res }
}

async function waitReady(token: string, id: number) {
  for (let i = 0; i < 200; i++) {
    const res = await get(ctx, paths.files.get(id), token)
    if (res.body.status === 'ready' || res.body.status === 'failed') return res.body
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`file ${id} never became ready`)
}

async function passages(fileId: number) {
  const { rows } = await ctx.database.pool.query<{ text: string }>(
    'select text from file_passages where file_id = $1 order by ordinal',
    [fileId],
  )
  return rows.map((row) => row.text).join('\n')
}

/** The repository's service on the test database, as a worker builds it. */
const repositoryOf = (onVersionReady?: VersionReadyHook) =>
  createRepositoryService({
    database: ctx.database,
    storage: createDiskStorage(ctx.dataDir),
    logger: createLogger('silent'),
    parseLimits: {},
    urlFetchAllow: [],
    onVersionReady,
  })

/** A file uploaded and read, then its second version uploaded by name and read. */
async function twoVersions(token: string, name = 'Access Control Policy.pdf') {
  const first = await policy(OLD)
  const second = await policy(NEW)
  const one = await upload(token, name, first)
  expect(one.status, JSON.stringify(one.body)).toBe(201)
  const id = one.body.files[0].id
  await waitReady(token, id)
  const two = await upload(token, name.toUpperCase().replace('.PDF', '.pdf'), second)
  expect(two.status, JSON.stringify(two.body)).toBe(201)
  await waitReady(token, id)
  return { id, first, second, one: one.body.files[0], two: two.body.files[0] }
}

describe('document versions', () => {
  it('makes a same-name upload the next version of the file, keeping its id', async () => {
    const admin = await member()
    const { id, first, second, one, two } = await twoVersions(admin.token)
    expect(one).toMatchObject({ version: 1, new_version: false, unchanged: false })
    expect(two).toMatchObject({
      id,
      name: 'Access Control Policy.pdf',
      version: 2,
      new_version: true,
      unchanged: false,
      size: second.length,
    })
    expect(['queued', 'processing']).toContain(two.status)
    // one file, at version 2, in the list and the detail
    const list = await get(ctx, paths.files.list, admin.token)
    expect(list.body.count).toBe(1)
    expect(list.body.results[0]).toMatchObject({ id, version: 2, status: 'ready' })
    expect((await get(ctx, paths.files.get(id), admin.token)).body.version).toBe(2)

    // the history, newest first
    const versions = await get(ctx, paths.files.versions(id), admin.token)
    expect(versions.status).toBe(200)
    expect(versions.body).toMatchObject({ file_id: id, count: 2 })
    expect(versions.body.results).toEqual([
      expect.objectContaining({ version: 2, current: true, size_bytes: second.length }),
      expect.objectContaining({ version: 1, current: false, size_bytes: first.length }),
    ])
    for (const version of versions.body.results) {
      expect(version).toMatchObject({
        name: 'Access Control Policy.pdf',
        kind: 'pdf',
        mime: 'application/pdf',
        created_by: { id: String(admin.user.id), email: admin.email },
      })
      expect(version.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(Number.isNaN(Date.parse(version.created_at))).toBe(false)
    }
    expect(versions.body.results[0].sha256).not.toBe(versions.body.results[1].sha256)

    // each version's own bytes
    const old = await download(paths.files.versionDownload(id, 1), admin.token)
    expect(old.status).toBe(200)
    expect(old.bytes.equals(first)).toBe(true)
    expect(old.res.headers.get('content-type')).toContain('application/pdf')
    const current = await download(paths.files.versionDownload(id, 2), admin.token)
    expect(current.bytes.equals(second)).toBe(true)
    expect((await download(paths.files.download(id), admin.token)).bytes.equals(second)).toBe(true)
    const missing = await get(ctx, paths.files.versionDownload(id, 3), admin.token)
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe(KNOWLEDGE_TEXTS.versionNotFound)

    // the passages are the new version's: the changed sentence is gone, the kept one stays
    const text = await passages(id)
    expect(text).toContain('NIST guidance')
    expect(text).not.toContain('ninety days')
    expect(text).toContain('AES-256')
    const search = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=${encodeURIComponent('memorized secrets')}`,
      admin.token,
    )
    expect(search.body.results[0]).toMatchObject({ kind: 'passage', file_id: id })
  })

  it('changes nothing for the same bytes again, without an error', async () => {
    const admin = await member()
    const data = await policy(OLD)
    const one = await upload(admin.token, 'Policy.pdf', data)
    const id = one.body.files[0].id
    await waitReady(admin.token, id)
    const again = await upload(admin.token, 'policy.pdf', data)
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect(again.body.files[0]).toMatchObject({
      id,
      version: 1,
      new_version: false,
      unchanged: true,
      status: 'ready',
    })
    expect((await get(ctx, paths.files.versions(id), admin.token)).body.count).toBe(1)
    expect((await get(ctx, paths.files.list, admin.token)).body.count).toBe(1)
  })

  it('counts files, not versions, against the license', async () => {
    const admin = await member()
    const one = await upload(admin.token, 'Policy.pdf', await policy(OLD))
    await ctx.database.pool.query('update licenses set max_repository = 1 where org_id = $1', [
      admin.orgId,
    ])
    const next = await upload(admin.token, 'Policy.pdf', await policy(NEW))
    expect(next.status, JSON.stringify(next.body)).toBe(201)
    expect(next.body.files[0]).toMatchObject({ id: one.body.files[0].id, version: 2 })
    const other = await upload(admin.token, 'Other.pdf', await policy(NEW))
    expect(other.status).toBe(403)
  })

  it('replaces a file from any name, keeping its name unless the kind changes', async () => {
    const admin = await member()
    const { id } = await twoVersions(admin.token, 'Access.pdf')
    const third = await policy('Accounts are reviewed every quarter.')
    const replaced = await send(paths.files.replace(id), admin.token, [
      { name: 'access-2026-final.pdf', data: third },
    ])
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect(replaced.body).toMatchObject({
      id,
      name: 'Access.pdf',
      version: 3,
      new_version: true,
      unchanged: false,
    })
    await waitReady(admin.token, id)
    expect(await passages(id)).toContain('reviewed every quarter')
    // the same bytes again: nothing changes
    const same = await send(paths.files.replace(id), admin.token, [{ name: 'x.pdf', data: third }])
    expect(same.body).toMatchObject({ id, version: 3, new_version: false, unchanged: true })
    // a Word document in place of the PDF takes the uploaded name
    const docx = makeDocx([{ paragraph: 'Access is reviewed monthly by the security team.' }])
    const word = await send(paths.files.replace(id), admin.token, [
      { name: 'Access.docx', data: docx },
    ])
    expect(word.body).toMatchObject({ id, name: 'Access.docx', kind: 'docx', version: 4 })
    await waitReady(admin.token, id)
    const versions = await get(ctx, paths.files.versions(id), admin.token)
    expect(versions.body.results.map((v: Body) => [v.version, v.name, v.current])).toEqual([
      [4, 'Access.docx', true],
      [3, 'Access.pdf', false],
      [2, 'Access.pdf', false],
      [1, 'Access.pdf', false],
    ])
    expect(
      (await download(paths.files.versionDownload(id, 3), admin.token)).bytes.equals(third),
    ).toBe(true)

    // one file exactly
    const none = await send(paths.files.replace(id), admin.token, [])
    expect(none.status).toBe(400)
    const two = await send(paths.files.replace(id), admin.token, [
      { name: 'a.pdf', data: third },
      { name: 'b.pdf', data: third },
    ])
    expect(two.status).toBe(400)
    expect(two.body.error).toBe(KNOWLEDGE_TEXTS.replaceOneFile)
    // a page added by its address is not a file
    const { rows } = await ctx.database.pool.query<{ id: string }>(
      `insert into repository_files (org_id, name, kind, mime, status, source_url, created_by)
       values ($1, 'example.com/policy', 'html', 'text/html', 'failed', 'https://example.com/policy', $2)
       returning id`,
      [admin.orgId, admin.user.id],
    )
    const link = await send(paths.files.replace(Number(rows[0]?.id)), admin.token, [
      { name: 'policy.pdf', data: third },
    ])
    expect(link.status).toBe(409)
    expect(link.body.error).toBe(KNOWLEDGE_TEXTS.replaceLink)
  })

  it("hides another organisation's versions and refuses bad ids", async () => {
    const admin = await member()
    const stranger = await member()
    const { id } = await twoVersions(admin.token)
    for (const path of [paths.files.versions(id), paths.files.versionDownload(id, 1)]) {
      const res = await get(ctx, path, stranger.token)
      expect(res.status, path).toBe(404)
      expect(res.body.error).toBe(KNOWLEDGE_TEXTS.fileNotFound)
    }
    const replaced = await send(paths.files.replace(id), stranger.token, [
      { name: 'x.pdf', data: await policy('Stranger text.') },
    ])
    expect(replaced.status).toBe(404)
    // the stranger's own same-name upload is a new file of their own
    const theirs = await upload(stranger.token, 'Access Control Policy.pdf', await policy(OLD))
    expect(theirs.body.files[0]).toMatchObject({ version: 1, new_version: false })
    expect(theirs.body.files[0].id).not.toBe(id)
    expect((await get(ctx, paths.files.get(id), admin.token)).body.version).toBe(2)

    expect((await get(ctx, paths.files.versions(0), admin.token)).status).toBe(400)
    expect((await get(ctx, paths.files.versions('abc'), admin.token)).status).toBe(404)
    expect((await get(ctx, paths.files.versionDownload(id, 0), admin.token)).status).toBe(400)
    expect((await get(ctx, paths.files.versionDownload(id, 'x'), admin.token)).status).toBe(404)
    expect((await get(ctx, paths.files.versions(987654321), admin.token)).status).toBe(404)
  })

  it('lets a viewer read versions but not replace, and a contributor replace only their own', async () => {
    const admin = await member()
    const { id, first } = await twoVersions(admin.token)
    const viewer = await member(admin.orgId, 'viewer')
    expect((await get(ctx, paths.files.versions(id), viewer.token)).status).toBe(200)
    const old = await download(paths.files.versionDownload(id, 1), viewer.token)
    expect(old.bytes.equals(first)).toBe(true)
    const denied = await send(paths.files.replace(id), viewer.token, [
      { name: 'x.pdf', data: await policy('Viewer text.') },
    ])
    expect(denied.status).toBe(403)

    const contributor = await member(admin.orgId, 'contributor')
    const theirs = await send(paths.files.replace(id), contributor.token, [
      { name: 'x.pdf', data: await policy('Contributor text.') },
    ])
    expect(theirs.status).toBe(403)
    expect(theirs.body.error).toBe(KNOWLEDGE_TEXTS.replaceOthersFiles)
    const byName = await upload(contributor.token, 'Access Control Policy.pdf', first)
    expect(byName.status).toBe(403)
    expect((await get(ctx, paths.files.get(id), admin.token)).body.version).toBe(2)
    // their own file they may version
    const own = await upload(contributor.token, 'Mine.pdf', await policy(OLD))
    const ownId = own.body.files[0].id
    const replaced = await send(paths.files.replace(ownId), contributor.token, [
      { name: 'Mine v2.pdf', data: await policy(NEW) },
    ])
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect(replaced.body).toMatchObject({ id: ownId, version: 2 })
  })

  it('deletes every version, with its blob, when the file goes', async () => {
    const admin = await member()
    const { id } = await twoVersions(admin.token)
    const storage = createDiskStorage(ctx.dataDir)
    const keys = await ctx.database.pool.query<{ storage_key: string }>(
      `select storage_key from repository_files where id = $1
       union all select storage_key from repository_file_versions where file_id = $1`,
      [id],
    )
    expect(keys.rows).toHaveLength(2)
    const blobs = keys.rows.map((row) => storage.pathOf(admin.orgId, row.storage_key))
    // the reaper's sweep of orphan blobs keeps the old version's: it is referenced
    const anHourAgo = new Date(Date.now() - 3_600_000)
    for (const blob of blobs) utimesSync(blob, anHourAgo, anHourAgo)
    await repositoryOf().reap(3_600_000, { requeue: false })
    for (const blob of blobs) expect(existsSync(blob)).toBe(true)
    const removed = await call(ctx, 'DELETE', paths.files.delete(id), { token: admin.token })
    expect(removed.body).toEqual({ deleted: 1 })
    for (const blob of blobs) expect(existsSync(blob)).toBe(false)
    const left = await ctx.database.pool.query(
      'select 1 from repository_file_versions where file_id = $1',
      [id],
    )
    expect(left.rowCount).toBe(0)
    expect((await get(ctx, paths.files.versions(id), admin.token)).status).toBe(404)
  })

  it('tells the onVersionReady hook when a new version has been read', async () => {
    const admin = await member()
    const { id } = await twoVersions(admin.token)
    const calls: [number, number, number][] = []
    const repository = repositoryOf(async (orgId, fileId, version) => {
      calls.push([orgId, fileId, version])
    })
    await repository.ingest(id)
    expect(calls).toEqual([[admin.orgId, id, 2]])
    expect(await passages(id)).toContain('NIST guidance')
    // a first version is not news
    const single = await upload(admin.token, 'Single.pdf', await policy(OLD))
    await waitReady(admin.token, single.body.files[0].id)
    await repository.ingest(single.body.files[0].id)
    expect(calls).toHaveLength(1)
  })
})
