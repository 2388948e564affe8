import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * `npm run dev`: the API server (embedded PostgreSQL, workers) and Vite with hot reload; Vite
 * proxies /api to the server. Open the Vite URL it prints.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
}
const children = [
  spawn(process.execPath, ['--watch-path=server', '--watch-path=contract', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn('npx', ['panda', 'codegen', '--watch', '--silent'], { cwd: root, stdio: 'inherit', env }),
  spawn('npx', ['vite'], { cwd: root, stdio: 'inherit', env }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) {
  child.on('exit', (code) => {
    if (code && code !== 0) {
      stop()
      process.exitCode = code
    }
  })
}
