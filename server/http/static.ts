import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Context, MiddlewareHandler } from 'hono'

/**
 * Serves the built SPA from memory: hashed assets under /assets/ are immutable for a year, the
 * HTML shell is revalidated on every load, and any other path without a file falls back to the
 * shell so that client-side routes survive a reload. Pre-compressed `.br`/`.gz` siblings written
 * at build time are sent to clients that accept them.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

interface Asset {
  body: Buffer<ArrayBuffer>
  br?: Buffer<ArrayBuffer>
  gzip?: Buffer<ArrayBuffer>
  type: string
  etag: string
  cacheControl: string
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return walk(full, base)
    return [`/${path.relative(base, full).split(path.sep).join('/')}`]
  })
}

export function loadAssets(distDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  if (!existsSync(distDir)) return assets
  const files = walk(distDir)
  const present = new Set(files)
  for (const urlPath of files) {
    if (urlPath.endsWith('.br') || urlPath.endsWith('.gz')) continue
    const full = path.join(distDir, urlPath)
    const body = readFileSync(full) as Buffer<ArrayBuffer>
    const ext = path.extname(urlPath)
    const read = (suffix: string) =>
      present.has(urlPath + suffix)
        ? (readFileSync(full + suffix) as Buffer<ArrayBuffer>)
        : undefined
    assets.set(urlPath, {
      body,
      br: read('.br'),
      gzip: read('.gz'),
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      cacheControl: urlPath.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : ext === '.html'
          ? 'no-cache'
          : 'public, max-age=3600',
    })
  }
  return assets
}

/**
 * Pages whose address carries a one-time token: no cache may keep them (LT8). Referrer-Policy
 * no-referrer, set on every response, keeps the token out of other sites' logs.
 */
export const LINK_PAGES = new Set(['/reset-password', '/set-password', '/confirm_email'])

function send(c: Context, asset: Asset, cacheControl = asset.cacheControl): Response {
  const headers = new Headers({
    'Content-Type': asset.type,
    'Cache-Control': cacheControl,
    ETag: asset.etag,
    Vary: 'Accept-Encoding',
  })
  if (c.req.header('if-none-match') === asset.etag) {
    return new Response(null, { status: 304, headers })
  }
  const accept = c.req.header('accept-encoding') ?? ''
  let body = asset.body
  if (asset.br && /\bbr\b/.test(accept)) {
    body = asset.br
    headers.set('Content-Encoding', 'br')
  } else if (asset.gzip && /\bgzip\b/.test(accept)) {
    body = asset.gzip
    headers.set('Content-Encoding', 'gzip')
  }
  headers.set('Content-Length', String(body.byteLength))
  return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers })
}

export function serveSpa(distDir: string): MiddlewareHandler {
  let assets = loadAssets(distDir)
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    // a development server may build after we started: pick the build up when it appears
    if (assets.size === 0) assets = loadAssets(distDir)
    const found = assets.get(c.req.path)
    if (found && c.req.path !== '/index.html') return send(c, found)
    const shell = assets.get('/index.html')
    if (!shell) {
      return c.text(
        'The web app is not built yet. Run `npm run build`, or `npm start` to build and start.',
        503,
      )
    }
    // a missing file with an extension is a real 404, not a client route
    if (path.extname(c.req.path) && !c.req.path.endsWith('.html')) {
      return c.text('Not found', 404)
    }
    const linkPage = LINK_PAGES.has(c.req.path.replace(/\/+$/, ''))
    return send(c, shell, linkPage ? 'no-store' : shell.cacheControl)
  }
}
