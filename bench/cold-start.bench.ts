import { rmSync } from 'node:fs'
import { round, startServer, tempDataDir } from './support.ts'

/**
 * Cold start to healthy: a fresh DATA_DIR (initdb, migrations, job schema) and an initialised one
 * (the everyday restart). Budget: under 5 s with an initialised DATA_DIR.
 */
const dataDir = tempDataDir()
try {
  const fresh = await startServer(dataDir)
  await fresh.stop()
  const runs: number[] = []
  for (let i = 0; i < 3; i += 1) {
    const again = await startServer(dataDir)
    runs.push(again.readyMs)
    await again.stop()
  }
  runs.sort((a, b) => a - b)
  console.log(
    JSON.stringify({
      bench: 'cold-start',
      fresh_data_dir_ms: round(fresh.readyMs),
      initialised_data_dir_ms: round(runs[1] ?? 0),
      initialised_runs_ms: runs.map((ms) => round(ms)),
      budget_initialised_ms: 5000,
      within_budget: (runs[1] ?? Infinity) < 5000,
    }),
  )
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
