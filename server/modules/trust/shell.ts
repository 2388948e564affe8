import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The built web app's entry, for the trust centre's HTML page (issue 40): the page is served whole
 * by the server (it reads without JavaScript), and when the app is built it carries the app's
 * module script and stylesheets too, so that the app mounts on it and takes over. Only tags that
 * load the app's own hashed files under /assets/ are taken; nothing inline.
 */
export interface TrustShell {
  /** The tags for the page's <head>: module scripts, module preloads, stylesheets. */
  head: string
}

const HEAD = /<head\b[^>]*>([\s\S]*?)<\/head>/i
const SCRIPT = /<script\b[^>]*\btype=["']module["'][^>]*><\/script>/gi
const LINK = /<link\b[^>]*>/gi
const ASSET = /^\/assets\/[\w.-]+\.(?:js|mjs|css)$/
const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1] ?? null

/** The app's tags of a built index.html; null when it loads no module script of /assets/. */
export function shellOf(indexHtml: string): TrustShell | null {
  const head = HEAD.exec(indexHtml)?.[1] ?? ''
  const scripts = [...head.matchAll(SCRIPT)]
    .map((match) => match[0])
    .filter((tag) => ASSET.test(attribute(tag, 'src') ?? ''))
  if (!scripts.length) return null
  const links = [...head.matchAll(LINK)]
    .map((match) => match[0])
    .filter(
      (tag) =>
        ['stylesheet', 'modulepreload'].includes(attribute(tag, 'rel')?.toLowerCase() ?? '') &&
        ASSET.test(attribute(tag, 'href') ?? ''),
    )
  return { head: [...scripts, ...links].join('') }
}

/** How often a missing build is looked for again (a development build may come after the start). */
const RETRY_MS = 10_000

/**
 * The shell of `${distDir}/index.html`, read once it exists: null until then (the page is then
 * served as it reads without JavaScript, with its stricter policy).
 */
export function shellReader(distDir: string, now: () => number = Date.now) {
  let shell: TrustShell | null = null
  let lookedAt = Number.NEGATIVE_INFINITY
  return (): TrustShell | null => {
    if (shell || now() - lookedAt < RETRY_MS) return shell
    lookedAt = now()
    const file = path.join(distDir, 'index.html')
    try {
      if (existsSync(file)) shell = shellOf(readFileSync(file, 'utf8'))
    } catch {
      shell = null
    }
    return shell
  }
}
