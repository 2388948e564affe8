import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { QUIRE_EXTENSION_ID } from '../contract/extension.ts'

/**
 * Builds the browser extension into dist/extension (loadable unpacked): the files as they are,
 * after checking that the manifest's key gives the extension id the server allows (AS13).
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
console.log(`extension ${id} built into ${path.relative(root, target)}`)
