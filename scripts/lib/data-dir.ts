import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A fresh DATA_DIR the embedded PostgreSQL's system user can enter. */
export function tempDataDir(label = 'bench') {
  const dir = mkdtempSync(path.join(tmpdir(), `quire-${label}-`))
  chmodSync(dir, 0o755)
  return dir
}
