import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The fixture portals of issue 42 (e2e/fixtures/portals/) on loopback: each page as a browser
 * gets it from a vendor-risk portal, and /react-form.js, the React form bundled from
 * react-form.tsx by Vite (once per process, into .tmp/portal-fixtures/).
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const FIXTURES = path.join(root, 'e2e', 'fixtures', 'portals')
const BUNDLE_DIR = path.join(root, '.tmp', 'portal-fixtures')
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

let bundled: Promise<string> | undefined

/** The React fixture, built for the browser as a page would ship it (production React). */
function reactBundle(): Promise<string> {
  bundled ??= (async () => {
    const [{ build }, { default: react }] = await Promise.all([
      import('vite'),
      import('@vitejs/plugin-react'),
    ])
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      publicDir: false,
      plugins: [react()],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: BUNDLE_DIR,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        sourcemap: false,
        target: 'chrome116',
        lib: {
          entry: path.join(FIXTURES, 'react-form.tsx'),
          formats: ['iife'],
          name: 'portalReactForm',
          fileName: () => 'react-form.js',
        },
      },
    })
    return readFileSync(path.join(BUNDLE_DIR, 'react-form.js'), 'utf8')
  })()
  return bundled
}

export interface Portals {
  /** http://127.0.0.1:<port> */
  origin: string
  /** The address of a fixture page by its name ('plain' or 'plain.html'). */
  url(name: string): string
  close(): Promise<void>
}

/** Serves the fixture portals on 127.0.0.1 on a free port. */
export async function startPortals(): Promise<Portals> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    const name = path.posix.basename(pathname)
    const ext = path.extname(name)
    const type = TYPES[ext]
    const send = (status: number, body: string, contentType = 'text/plain; charset=utf-8') => {
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' })
      response.end(body)
    }
    if (pathname !== `/${name}` || !type) return send(404, 'not found')
    if (name === 'react-form.js') {
      reactBundle().then(
        (body) => send(200, body, type),
        (error: unknown) => send(500, String(error)),
      )
      return
    }
    const file = path.join(FIXTURES, name)
    if (!existsSync(file)) return send(404, 'not found')
    send(200, readFileSync(file, 'utf8'), type)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: (name) => `${origin}/${name.endsWith('.html') ? name : `${name}.html`}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** The reader's sources: a change to any of these makes dist/extension/reader.js stale. */
const READER_SOURCES = [
  'extension-src/reader.ts',
  'extension-src/reader-entry.ts',
  'contract/portal.ts',
  'contract/portal-options.ts',
]

/**
 * dist/extension/reader.js, the portal reader as the extension injects it; built by
 * scripts/build-extension.ts first when it is missing or older than its sources.
 */
export function builtReader(): string {
  const reader = path.join(root, 'dist', 'extension', 'reader.js')
  const builtAt = () => (existsSync(reader) ? statSync(reader).mtimeMs : 0)
  const fresh = () =>
    READER_SOURCES.every((source) => {
      const full = path.join(root, source)
      return !existsSync(full) || statSync(full).mtimeMs <= builtAt()
    })
  if (!fresh()) {
    const result = spawnSync(process.execPath, ['scripts/build-extension.ts'], {
      cwd: root,
      encoding: 'utf8',
    })
    // the reader is built first: the rest of the extension failing does not make it stale
    if (!fresh())
      throw new Error(
        `could not build dist/extension/reader.js:\n${result.stderr || result.stdout}`,
      )
  }
  return reader
}
