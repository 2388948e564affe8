import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  ATTACHMENT_MAX_BYTES,
  isAcceptedAttachmentName,
  SUPPORT_TEXTS,
} from '../../../contract/support.ts'
import { apiError } from '../../http/errors.ts'

/** An attachment whose name, size and bytes have been checked. */
export interface CheckedAttachment {
  filename: string
  contentType: string
  data: Buffer
}

/** The longest base64 text (padding included) that can decode to ATTACHMENT_MAX_BYTES. */
export const ATTACHMENT_MAX_BASE64 = Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/
const DATA_URL_PREFIX = /^data:[^,]{0,200},/

const unsupported = () =>
  apiError(415, SUPPORT_TEXTS.attachmentType, {
    msg: SUPPORT_TEXTS.attachmentType,
    code: ERROR_CODES.unsupportedMedia,
  })
const tooLarge = () =>
  apiError(413, SUPPORT_TEXTS.attachmentTooLarge, {
    msg: SUPPORT_TEXTS.attachmentTooLarge,
    code: ERROR_CODES.tooLarge,
  })

const startsWith = (data: Buffer, bytes: number[] | string, offset = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes)
  return (
    data.length >= offset + expected.length &&
    data.subarray(offset, offset + expected.length).equals(expected)
  )
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
/** Valid UTF-8 without NUL bytes, or null. */
function plainText(data: Buffer): string | null {
  if (data.includes(0)) return null
  try {
    return utf8.decode(data)
  } catch {
    return null
  }
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'])

/** The content type the bytes prove for the name's extension, or null when they do not match. */
export function sniffContentType(filename: string, data: Buffer): string | null {
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase()
  switch (extension) {
    case 'png':
      return startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ? 'image/png' : null
    case 'jpg':
    case 'jpeg':
      return startsWith(data, [0xff, 0xd8, 0xff]) ? 'image/jpeg' : null
    case 'gif':
      return startsWith(data, 'GIF87a') || startsWith(data, 'GIF89a') ? 'image/gif' : null
    case 'webp':
      return startsWith(data, 'RIFF') && startsWith(data, 'WEBP', 8) ? 'image/webp' : null
    case 'bmp':
      return startsWith(data, 'BM') && data.length >= 26 ? 'image/bmp' : null
    case 'heic':
      return startsWith(data, 'ftyp', 4) && HEIF_BRANDS.has(data.subarray(8, 12).toString('latin1'))
        ? 'image/heic'
        : null
    case 'pdf':
      return startsWith(data, '%PDF-') ? 'application/pdf' : null
    case 'svg': {
      // SVG can carry script: it is kept as a download only and must never be served inline.
      const text = plainText(data)
      return text !== null && /<svg[\s>]/i.test(text.slice(0, 4096)) ? 'image/svg+xml' : null
    }
    case 'txt':
    case 'log':
      return plainText(data) === null ? null : 'text/plain; charset=utf-8'
    default:
      return null
  }
}

/**
 * Checks one attachment: an accepted name (else 415), at most ATTACHMENT_MAX_BYTES once decoded
 * (else 413; an over-long base64 text is refused before decoding), and bytes whose magic matches
 * the name (else 415).
 */
export function checkAttachment(input: { filename: string; data: string }): CheckedAttachment {
  const filename = input.filename.trim()
  if (!isAcceptedAttachmentName(filename) || /[\\/\0]/.test(filename)) throw unsupported()
  let encoded = input.data
  const prefix = DATA_URL_PREFIX.exec(encoded.slice(0, 256))
  if (prefix) encoded = encoded.slice(prefix[0].length)
  // Line breaks of MIME-style base64 are tolerated, but only a bounded amount of them.
  if (encoded.length > ATTACHMENT_MAX_BASE64 * 1.05 + 64) throw tooLarge()
  if (/\s/.test(encoded)) encoded = encoded.replace(/\s+/g, '')
  if (encoded.length > ATTACHMENT_MAX_BASE64) throw tooLarge()
  if (!BASE64.test(encoded)) {
    throw apiError(400, 'Attachment data must be base64', {
      msg: `attachments: ${filename} is not valid base64`,
      code: ERROR_CODES.validation,
    })
  }
  const data = Buffer.from(
    encoded,
    encoded.includes('-') || encoded.includes('_') ? 'base64url' : 'base64',
  )
  if (data.length > ATTACHMENT_MAX_BYTES) throw tooLarge()
  const contentType = sniffContentType(filename, data)
  if (!contentType) throw unsupported()
  return { filename, contentType, data }
}
