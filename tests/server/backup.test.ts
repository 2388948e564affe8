import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { freePort } from '../../server/db/embedded.ts'
import { serverProcesses } from '../support/server-process.ts'

/**
 * Issue 14: `npm run backup` while the server runs, then `npm run restore` onto an empty DATA_DIR
 * brings back the database (rows, ids that keep counting, sessions signed with the kept secret)
 * and the stored files byte for byte. A file that is not a backup, and a database that already
 * holds data (without --force), are refused with a clear message.
 */

const root = path.resolve(import.meta.dirname, '../..')
const procs = serverProcesses('backup')
const { dataDir, start, waitHealthy, seedMember, query } = procs
afterAll(procs.cleanup)

function script(name: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [`scripts/${name}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('backup and restore', () => {
  it('round-trips the database and the stored files, and refuses what it must', async () => {
    const port = await freePort()
    let server = start(port)
    await waitHealthy(port)
    const { access } = await seedMember(port, 'backup@example.com')
    const base = `http://127.0.0.1:${port}`
    const csv = 'ID,Question,Answer\nBK-1,Do you back up customer data?,Yes\n'
    const form = new FormData()
    form.append('file', new Blob([csv]), 'Backed up.csv')
    const uploaded = await fetch(`${base}${apiPath(paths.questionnaires.upload)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}` },
      body: form,
    })
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: number }
    const before = await query<{ id: string; name: string; storage_key: string }>(
      'select id, name, storage_key from questionnaires order by id',
    )

    // a backup while the server runs
    const archive = path.join(mkdtempSync(path.join(tmpdir(), 'quire-backups-')), 'nightly.tar')
    const made = script('backup', [archive])
    expect(made.status, made.output).toBe(0)
    expect(made.output).toMatch(/Backup written: .*nightly\.tar/)

    // the machine is lost: nothing of DATA_DIR is left
    server.child.kill('SIGTERM')
    await server.exited
    for (const entry of readdirSync(dataDir)) rmSync(path.join(dataDir, entry), { recursive: true })

    // not a backup: refused, nothing touched
    const junk = path.join(path.dirname(archive), 'junk.tar')
    writeFileSync(junk, 'this is not an archive')
    const refused = script('restore', [junk])
    expect(refused.status).toBe(1)
    expect(refused.output).toContain('is not a Quire backup')

    const restored = script('restore', [archive])
    expect(restored.status, restored.output).toBe(0)
    expect(restored.output).toContain('Restored the backup of')

    server = start(port)
    await waitHealthy(port)
    // the session from before still works: same secret, same session rows
    const get = (route: string) =>
      fetch(`${base}${apiPath(route)}`, { headers: { authorization: `Bearer ${access}` } })
    const questionnaire = (await (await get(paths.questionnaires.get(id))).json()) as {
      name: string
      status: string
      questions: number
    }
    expect(questionnaire).toMatchObject({ name: 'Backed up.csv', status: 'ready', questions: 1 })
    const original = await get(paths.questionnaires.download(id))
    expect(original.status).toBe(200)
    expect(Buffer.from(await original.arrayBuffer()).toString('utf8')).toBe(csv)
    expect(
      await query<{ id: string; name: string; storage_key: string }>(
        'select id, name, storage_key from questionnaires order by id',
      ),
    ).toEqual(before)
    // ids keep counting after the restored ones
    const form2 = new FormData()
    form2.append('file', new Blob([csv]), 'After restore.csv')
    const next = await fetch(`${base}${apiPath(paths.questionnaires.upload)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}` },
      body: form2,
    })
    expect(next.status).toBe(201)
    expect(((await next.json()) as { id: number }).id).toBeGreaterThan(id)
    server.child.kill('SIGTERM')
    await server.exited

    // a database that holds data is replaced only with --force
    const again = script('restore', [archive])
    expect(again.status).toBe(1)
    expect(again.output).toContain('run again with --force')
    const forced = script('restore', [archive, '--force'])
    expect(forced.status, forced.output).toBe(0)
  }, 180_000)
})
