import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm test`: lint, typecheck, the vitest projects (machines, server, ui) and the Playwright
 * journeys, in that order; every step runs even when an earlier one fails, and the run ends with
 * one line: `N passed, N failed`.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const tmp = path.join(root, '.tmp')
mkdirSync(tmp, { recursive: true })

let passed = 0
let failed = 0
const failures: string[] = []

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(`◀ ${label}: exit ${result.status ?? result.signal} in ${seconds}s`)
  return result.status === 0
}

function check(label: string, ok: boolean) {
  if (ok) passed += 1
  else {
    failed += 1
    failures.push(label)
  }
}

const readJson = <T>(file: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch {
    return undefined
  }
}

check('lint', run('lint', 'npm', ['run', 'lint', '--silent']))
const codegen = run('styles', 'npx', ['panda', 'codegen', '--silent'])
check('typecheck', codegen && run('typecheck', 'npm', ['run', 'typecheck', '--silent']))

// vitest: machines, server and ui projects
const vitestReport = path.join(tmp, 'vitest.json')
rmSync(vitestReport, { force: true })
const vitestOk = run('unit, server and ui tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
])
type VitestReport = {
  numPassedTests: number
  numFailedTests: number
  numTotalTests: number
  testResults?: {
    name: string
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[]
  }[]
}
const vitest = readJson<VitestReport>(vitestReport)
/** The failed tests by file and name, with the first line of each failure: the run's tail is often all a reader sees. */
const failedTests = (report: VitestReport) =>
  (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => {
        const why = (test.failureMessages?.[0] ?? '').split('\n')[0]?.slice(0, 300)
        return `  ${path.relative(root, file.name)} › ${test.fullName}\n    ${why}`
      }),
  )
if (vitest) {
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests
  if (vitest.numFailedTests > 0) failures.push(`${vitest.numFailedTests} vitest test(s)`)
  if (!vitestOk && vitest.numFailedTests === 0) check('vitest run (errors outside tests)', false)
} else check('vitest (no report)', vitestOk && false)

// Playwright journeys against the production build
const playwrightReport = path.join(tmp, 'playwright-results.json')
rmSync(playwrightReport, { force: true })
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: install Debian's chromium (apt-get install chromium).`,
  )
  check('e2e (no chromium)', false)
} else {
  const e2eOk = run('e2e journeys', 'npx', ['playwright', 'test'])
  const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number } }>(
    playwrightReport,
  )
  if (report) {
    passed += report.stats.expected + report.stats.flaky
    failed += report.stats.unexpected
    if (report.stats.unexpected > 0) failures.push(`${report.stats.unexpected} e2e journey(s)`)
    if (!e2eOk && report.stats.unexpected === 0)
      check('playwright run (errors outside tests)', false)
  } else check('e2e (no report)', false)
}

if (vitest && vitest.numFailedTests > 0)
  console.log(`\nFailed vitest tests:\n${failedTests(vitest).join('\n')}`)
if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
