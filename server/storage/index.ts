import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Blobs on disk under DATA_DIR/files/<org>/<key>, addressed by generated keys, never by uploaded
 * names (UP8). Writes go to DATA_DIR/tmp/<uuid>.part, are flushed to disk, then renamed into
 * place, so a blob either exists whole or not at all (DU1). The same interface could sit in front
 * of an S3-compatible store.
 */

export interface TempFile {
  path: string
  size: number
  sha256: string
}

export class SizeLimitError extends Error {
  override name = 'SizeLimitError'
}

export interface Storage {
  readonly root: string
  /** Streams into a temp file, counting bytes; past `maxBytes` it stops and throws SizeLimitError. */
  writeTemp(source: Readable, maxBytes: number): Promise<TempFile>
  tempFromBuffer(data: Buffer): Promise<TempFile>
  /** Moves a complete temp file into place under a new key. */
  commit(orgId: number, temp: TempFile): Promise<string>
  pathOf(orgId: number, key: string): string
  open(orgId: number, key: string): Readable
  delete(orgId: number, key: string): Promise<void>
  discard(temp: TempFile | string): Promise<void>
  /** Removes temp files older than `olderThanMs` and blobs no row references (DU1). */
  sweep(
    referenced: (orgId: number, key: string) => Promise<boolean>,
    olderThanMs: number,
  ): Promise<{ temp: number; orphans: number }>
}

/** Whether a process of this machine still runs (one we may not signal runs too). */
export function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function createDiskStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'files')
  const tmp = path.join(dataDir, 'tmp')
  const pathOf = (orgId: number, key: string) => {
    if (!KEY.test(key) || !Number.isSafeInteger(orgId)) throw new Error('Invalid storage key')
    return path.join(root, String(orgId), key)
  }
  const flush = async (file: string) => {
    const handle = await open(file, 'r+')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
  return {
    root,
    async writeTemp(source, maxBytes) {
      await mkdir(tmp, { recursive: true })
      const file = path.join(tmp, `${process.pid}-${randomUUID()}.part`)
      const hash = createHash('sha256')
      let size = 0
      let tooLarge = false
      const out = createWriteStream(file, { mode: 0o600 })
      const written = new Promise<void>((resolve, reject) => {
        out.on('finish', resolve)
        out.on('error', reject)
      })
      try {
        // past the cap the rest is read and dropped, so that the request's other parts still parse
        for await (const chunk of source as AsyncIterable<Buffer>) {
          size += chunk.length
          if (tooLarge) continue
          if (size > maxBytes) {
            tooLarge = true
            continue
          }
          hash.update(chunk)
          if (!out.write(chunk))
            await new Promise<void>((resolve) => out.once('drain', () => resolve()))
        }
        out.end()
        await written
        if (tooLarge) throw new SizeLimitError('too large')
        await flush(file)
      } catch (error) {
        out.destroy()
        await rm(file, { force: true })
        throw error
      }
      return { path: file, size, sha256: hash.digest('hex') }
    },
    async tempFromBuffer(data) {
      await mkdir(tmp, { recursive: true })
      const file = path.join(tmp, `${process.pid}-${randomUUID()}.part`)
      const handle = await open(file, 'w', 0o600)
      try {
        await handle.writeFile(data)
        await handle.sync()
      } finally {
        await handle.close()
      }
      return {
        path: file,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      }
    },
    async commit(orgId, temp) {
      const key = randomUUID()
      const target = pathOf(orgId, key)
      await mkdir(path.dirname(target), { recursive: true })
      await rename(temp.path, target)
      return key
    },
    pathOf,
    open: (orgId, key) => createReadStream(pathOf(orgId, key)),
    async delete(orgId, key) {
      await rm(pathOf(orgId, key), { force: true })
    },
    async discard(temp) {
      await rm(typeof temp === 'string' ? temp : temp.path, { force: true })
    },
    async sweep(referenced, olderThanMs) {
      const cutoff = Date.now() - olderThanMs
      let tempCount = 0
      let orphans = 0
      for (const name of await readdir(tmp).catch(() => [] as string[])) {
        const file = path.join(tmp, name)
        const info = await stat(file).catch(() => null)
        // a temp file of a process that is gone (killed mid-upload) goes at once
        const owner = Number(name.split('-')[0])
        const ownerGone = Number.isSafeInteger(owner) && owner !== process.pid && !isAlive(owner)
        if (info && (ownerGone || info.mtimeMs < cutoff)) {
          await rm(file, { force: true })
          tempCount += 1
        }
      }
      for (const org of await readdir(root).catch(() => [] as string[])) {
        const orgId = Number(org)
        if (!Number.isSafeInteger(orgId)) continue
        for (const key of await readdir(path.join(root, org)).catch(() => [] as string[])) {
          if (!KEY.test(key)) continue
          const info = await stat(path.join(root, org, key)).catch(() => null)
          if (!info || info.mtimeMs >= cutoff) continue
          if (!(await referenced(orgId, key))) {
            await rm(path.join(root, org, key), { force: true })
            orphans += 1
          }
        }
      }
      return { temp: tempCount, orphans }
    },
  }
}
