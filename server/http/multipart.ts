import path from 'node:path'
import { Readable } from 'node:stream'
import busboy from 'busboy'
import type { Context } from 'hono'
import { z } from 'zod'
import type { FileKind } from '../../contract/knowledge.ts'
import { fillText, KNOWLEDGE_TEXTS, MAX_FILES_PER_UPLOAD } from '../../contract/knowledge.ts'
import { PRODUCT_TEXTS } from '../../contract/products.ts'
import { detectFileKind, kindFromName } from '../ingest/detect.ts'
import { SizeLimitError, type Storage, type TempFile } from '../storage/index.ts'
import { apiError } from './errors.ts'

/**
 * Multipart uploads streamed to temp files, never buffered whole (UP2): a declared length beyond
 * what the request may carry is refused before a byte is read, and each file is cut off at the
 * per-file cap while it streams. On any refusal every temp file of the request is removed.
 */

export interface Upload {
  temp: TempFile
  filename: string
  field: string
}

const tooLarge = (text: string) => apiError(413, text, { code: 'payload_too_large' })

/** The most one request may carry: its files at their cap, plus 1 MB for fields and framing. */
const requestCap = (maxBytes: number, maxFiles: number) => maxBytes * maxFiles + 1024 * 1024
const requestTooLarge = (maxBytes: number) =>
  tooLarge(`The upload is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit per file`)

/** Refuses by Content-Length alone, before reading (UP2). */
export function checkDeclaredLength(c: Context, maxBytes: number, maxFiles: number) {
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > requestCap(maxBytes, maxFiles)) {
    throw requestTooLarge(maxBytes)
  }
}

export async function readMultipart(
  c: Context,
  storage: Storage,
  options: { maxBytes: number; maxFiles?: number; fileFields: string[] },
): Promise<{ uploads: Upload[]; fields: Record<string, string> }> {
  const maxFiles = options.maxFiles ?? MAX_FILES_PER_UPLOAD
  const type = c.req.header('content-type') ?? ''
  if (!/^multipart\/form-data/i.test(type) || !c.req.raw.body) {
    throw apiError(400, 'Send the files as multipart/form-data', { code: 'validation_error' })
  }
  checkDeclaredLength(c, options.maxBytes, maxFiles)
  const written: Upload[] = []
  let order = 0
  const fields: Record<string, string> = {}
  const pending: Promise<void>[] = []
  let failure: Error | null = null
  const limitMb = Math.round(options.maxBytes / 1024 / 1024)

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { files: maxFiles + 1, fields: 20, fieldSize: 64 * 1024, parts: maxFiles + 21 },
      defParamCharset: 'utf8',
    })
  } catch {
    throw apiError(400, 'The upload is not valid multipart/form-data', { code: 'validation_error' })
  }
  const done = new Promise<void>((resolve, reject) => {
    parser.on('file', (field, stream, info) => {
      if (failure || !options.fileFields.includes(field)) {
        stream.resume()
        return
      }
      if (pending.length >= maxFiles) {
        failure ??= apiError(400, KNOWLEDGE_TEXTS.tooManyFiles, { code: 'validation_error' })
        stream.resume()
        return
      }
      const filename = info.filename || 'file'
      // keep the order of the parts, whatever order their writes finish in
      const slot = order++
      pending.push(
        storage
          .writeTemp(stream, options.maxBytes)
          .then((temp) => {
            written[slot] = { temp, filename, field }
          })
          .catch((error) => {
            stream.resume()
            if (error instanceof SizeLimitError) {
              failure ??= tooLarge(
                fillText(KNOWLEDGE_TEXTS.fileTooLarge, { name: filename, limit: limitMb }),
              )
            } else failure ??= error as Error
          }),
      )
    })
    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('close', () => resolve())
    parser.on('error', () =>
      reject(
        apiError(400, 'The upload is not valid multipart/form-data', { code: 'validation_error' }),
      ),
    )
  })
  const source = Readable.fromWeb(
    c.req.raw.body as import('node:stream/web').ReadableStream<Uint8Array>,
  )
  source.on('error', (error) => parser.destroy(error))
  // a body without Content-Length (chunked) is counted as it streams and cut off at the cap,
  // instead of being read and dropped to its end
  const cap = requestCap(options.maxBytes, maxFiles)
  let received = 0
  source.on('data', (chunk: Buffer) => {
    received += chunk.length
    if (received > cap && !failure) {
      failure = requestTooLarge(options.maxBytes)
      source.unpipe(parser)
      source.destroy()
      parser.destroy(failure)
    }
  })
  source.pipe(parser)
  try {
    await done
    await Promise.all(pending)
  } catch (error) {
    failure ??= error as Error
    await Promise.allSettled(pending)
  }
  const uploads = written.filter(Boolean)
  if (failure) {
    await Promise.all(uploads.map((upload) => storage.discard(upload.temp)))
    throw failure
  }
  return { uploads, fields }
}

/** Tags sent with an upload: a JSON array or comma-separated text. */
export function parseTagsField(value: string | undefined): string[] {
  if (!value?.trim()) return []
  try {
    const parsed: unknown = JSON.parse(value)
    if (Array.isArray(parsed)) return parsed.map(String)
  } catch {
    // comma-separated
  }
  return value.split(',')
}

/**
 * What an uploaded file is, from its bytes, before anything is stored: an empty file is a 400, a
 * package that fails the zip guard a 422 with its reason, and a type the area does not take (or a
 * name that claims another type than the bytes) a 415, each in the spec's words.
 */
export async function detectUpload<K extends FileKind>(
  upload: { temp: TempFile; filename: string },
  accepted: readonly K[],
  /** The area's refusal, with `{name}`. */
  unsupported: string,
): Promise<{ name: string; kind: K; mime: string }> {
  const name = displayName(upload.filename)
  if (upload.temp.size === 0)
    throw apiError(400, fillText(KNOWLEDGE_TEXTS.emptyFile, { name }), { code: 'empty_file' })
  const detected = await detectFileKind(upload.temp.path, name)
  if (!detected.ok && detected.reason === 'unsafe')
    throw apiError(
      422,
      fillText(KNOWLEDGE_TEXTS.unsafePackage, { name, reason: detected.message }),
      { code: 'unsafe_file' },
    )
  if (!detected.ok || !accepted.includes(detected.kind as K)) {
    const claimed = kindFromName(name)
    const text =
      !detected.ok && detected.reason === 'mismatch' && claimed
        ? fillText(KNOWLEDGE_TEXTS.typeMismatch, { name, kind: claimed.toUpperCase() })
        : fillText(unsupported, { name })
    throw apiError(415, text, { code: 'unsupported_media_type' })
  }
  return { name, kind: detected.kind as K, mime: detected.mime }
}

/** A display name safe to show and to put in a header: no paths, no control characters. */
export function displayName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return (clean || 'file').slice(0, 255)
}

const productFieldSchema = z.coerce.number().int().positive()

/**
 * The product an upload speaks for (issue 38), from its `product_id` field: absent, empty or
 * `null` is the whole company; anything else must be a product's id (400 in plain words).
 */
export function parseProductField(value: string | undefined): number | null {
  if (value === undefined || !value.trim() || value.trim() === 'null') return null
  const parsed = productFieldSchema.safeParse(value.trim())
  if (!parsed.success) throw apiError(400, PRODUCT_TEXTS.invalid, { code: 'validation_error' })
  return parsed.data
}
