import { open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileTypeFromFile } from 'file-type'
import { FILE_EXTENSIONS, type FileKind } from '../../contract/knowledge.ts'
import { DEFAULT_PARSE_LIMITS, ParseError } from './types.ts'
import { inspectZip } from './zip-guard.ts'

/**
 * Decides what a file is from its bytes (UP1), then checks that its name agrees. A PDF named
 * .xlsx, or a zip named .pdf, is a mismatch; executables, images and legacy Office files are
 * unsupported. An Office package whose structure is unsafe (a part its table of contents hides,
 * duplicates or overlaps, a bomb's declared sizes, unsafe names) is refused here, at upload, by
 * the same check that runs again before it is ever inflated (server/ingest/zip-guard.ts).
 */
export type DetectResult =
  | { ok: true; kind: FileKind; mime: string }
  | { ok: false; reason: 'unsupported' | 'mismatch'; kind?: FileKind }
  | { ok: false; reason: 'unsafe'; kind: FileKind; message: string }

const MIME: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
}
export const mimeOf = (kind: FileKind) => MIME[kind]

const TEXT_KINDS: FileKind[] = ['csv', 'txt', 'md', 'html']

/** The kind a file name claims, from its extension. */
export function kindFromName(filename: string): FileKind | null {
  const ext = path.extname(filename).toLowerCase()
  for (const [kind, extensions] of Object.entries(FILE_EXTENSIONS)) {
    if (extensions.includes(ext)) return kind as FileKind
  }
  return null
}

/** True when the bytes are text: UTF-8 (or UTF-16 with a byte-order mark) without NUL bytes. */
export function looksLikeText(head: Uint8Array): boolean {
  if (
    head.length >= 2 &&
    ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
  ) {
    return true
  }
  if (head.includes(0)) return false
  // a multi-byte character may be cut at the end of the sample: decode in streaming mode
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
    return true
  } catch {
    return false
  }
}

const looksLikeHtml = (text: string) =>
  /<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(text)

async function readHead(filePath: string, bytes: number) {
  const handle = await open(filePath, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

export async function detectFileKind(filePath: string, filename: string): Promise<DetectResult> {
  const claimed = kindFromName(filename)
  const type = await fileTypeFromFile(filePath)
  if (type) {
    const kind: FileKind | null =
      type.ext === 'pdf'
        ? 'pdf'
        : type.ext === 'docx'
          ? 'docx'
          : type.ext === 'xlsx'
            ? 'xlsx'
            : null
    if (!kind) {
      // a binary format we don't read: a mismatch if the name claims one we do
      return claimed ? { ok: false, reason: 'mismatch' } : { ok: false, reason: 'unsupported' }
    }
    if (claimed !== kind) {
      return claimed
        ? { ok: false, reason: 'mismatch', kind }
        : { ok: false, reason: 'unsupported', kind }
    }
    if (kind === 'docx' || kind === 'xlsx') {
      try {
        inspectZip(await readFile(filePath), DEFAULT_PARSE_LIMITS)
      } catch (error) {
        if (!(error instanceof ParseError)) throw error
        return { ok: false, reason: 'unsafe', kind, message: error.message }
      }
    }
    return { ok: true, kind, mime: MIME[kind] }
  }
  const head = await readHead(filePath, 64 * 1024)
  if (!looksLikeText(head)) {
    return claimed ? { ok: false, reason: 'mismatch' } : { ok: false, reason: 'unsupported' }
  }
  if (!claimed) return { ok: false, reason: 'unsupported', kind: 'txt' }
  if (!TEXT_KINDS.includes(claimed)) return { ok: false, reason: 'mismatch', kind: 'txt' }
  if (claimed === 'txt' && looksLikeHtml(head.toString('utf8'))) {
    return { ok: true, kind: 'html', mime: MIME.html }
  }
  return { ok: true, kind: claimed, mime: MIME[claimed] }
}
