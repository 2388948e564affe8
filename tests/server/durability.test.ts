import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { freePort } from '../../server/db/embedded.ts'
import { serverProcesses } from '../support/server-process.ts'

/**
 * DU1: a server killed with SIGKILL at random points of uploads and ingestion comes back with no
 * ready file whose blob is partial, no temp file of the dead process, and nothing left 'processing'.
 */

const { dataDir, start, waitHealthy, query, seedMember, cleanup } = serverProcesses('du1')
afterAll(cleanup)

/** A multipart upload whose body trickles in, so that a kill can land in the middle of it. */
function slowUpload(base: string, token: string, name: string, size: number) {
  const boundary = 'quire-du1-boundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunk = Buffer.alloc(128 * 1024, 'Durability line about backups and encryption at rest.\n')
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) controller.enqueue(head)
      if (sent >= size) {
        controller.enqueue(tail)
        controller.close()
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 3))
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent))
      sent += part.length
      controller.enqueue(part)
    },
  })
  return fetch(`${base}${apiPath(paths.files.upload)}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit).then(
    (res) => res.status,
    () => 0,
  )
}

describe('durability', () => {
  it('DU1: SIGKILL at 20 random points mid-upload leaves no partial ready file and no orphan temp file', async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let server = start(port)
    await waitHealthy(port)
    const { access } = await seedMember(port, 'du1@example.com')

    for (let round = 0; round < 20; round++) {
      // a slow upload in flight, a finished one being ingested, then a kill at a random moment
      const inFlight = slowUpload(base, access, `slow-${round}.txt`, 2 * 1024 * 1024)
      const quick = slowUpload(base, access, `quick-${round}.txt`, 256 * 1024)
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 200)))
      server.child.kill('SIGKILL')
      await server.exited
      await Promise.all([inFlight, quick])
      server = start(port)
      await waitHealthy(port)
    }
    const restartedAt = new Date()

    const rows = await query<{
      id: string
      org_id: string
      status: string
      storage_key: string | null
      size_bytes: string
      sha256: string | null
      processing_started_at: Date | null
    }>(
      'select id, org_id, status, storage_key, size_bytes, sha256, processing_started_at from repository_files',
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      if (row.status === 'processing')
        expect(
          row.processing_started_at &&
            row.processing_started_at >= new Date(restartedAt.getTime() - 30_000),
        ).toBeTruthy()
      if (!row.storage_key) continue
      // every stored row has its whole blob: same size, same hash
      const blob = readFileSync(path.join(dataDir, 'files', String(row.org_id), row.storage_key))
      expect(blob.length).toBe(Number(row.size_bytes))
      expect(createHash('sha256').update(blob).digest('hex')).toBe(row.sha256)
    }
    // nothing was left 'processing' by a dead process: the restart failed it with a readable error
    const interrupted = await query<{ error: string }>(
      `select error from repository_files where status = 'failed'`,
    )
    for (const row of interrupted) expect(row.error).toMatch(/interrupted|could not|took longer/i)
    // temp files of killed processes are gone
    const tmp = path.join(dataDir, 'tmp')
    const leftovers = existsSync(tmp)
      ? readdirSync(tmp).filter((name) => Number(name.split('-')[0]) !== server.child.pid)
      : []
    expect(leftovers).toEqual([])
    server.child.kill('SIGTERM')
    await server.exited
  }, 180_000)
})
