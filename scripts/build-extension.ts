import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { build } from 'vite'
import { QUIRE_EXTENSION_ID } from '../contract/extension.ts'

/**
 * Builds the browser extension into dist/extension (loadable unpacked): the static files of
 * extension/ as they are, after checking that the manifest's key gives the extension id the
 * server allows (AS13); then, from extension-src/, the portal reader on its own (reader.js, one
 * script injected into a page, issue 42), the shared client (quire.js, a module the popup and
 * the background import) and the side panel (panel.js: React views over an XState machine).
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const source = path.join(root, 'extension')
const target = path.join(root, 'dist', 'extension')

const manifest = JSON.parse(readFileSync(path.join(source, 'manifest.json'), 'utf8')) as {
  key: string
  manifest_version: number
}
if (manifest.manifest_version !== 3) throw new Error('extension/manifest.json must be Manifest V3')
const hex = createHash('sha256')
  .update(Buffer.from(manifest.key, 'base64'))
  .digest('hex')
  .slice(0, 32)
const id = [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('')
if (id !== QUIRE_EXTENSION_ID)
  throw new Error(`the manifest's key gives extension id ${id}, not ${QUIRE_EXTENSION_ID}`)

rmSync(target, { recursive: true, force: true })
mkdirSync(target, { recursive: true })
cpSync(source, target, { recursive: true })

const bundle = async (entry: string, fileName: string, format: 'iife' | 'es') =>
  build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: format === 'iife' && entry.endsWith('.tsx') ? [react()] : [],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: target,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      sourcemap: false,
      target: 'chrome116',
      lib: {
        entry: path.join(root, 'extension-src', entry),
        formats: [format],
        name: `quire_${fileName.replace(/\W/g, '_')}`,
        fileName: () => fileName,
      },
    },
  })
await bundle('reader-entry.ts', 'reader.js', 'iife')
await bundle('quire.ts', 'quire.js', 'es')
await bundle('panel/main.tsx', 'panel.js', 'iife')
console.log(`extension ${id} built into ${path.relative(root, target)}`)
