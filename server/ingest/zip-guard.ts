import { Inflate } from 'fflate'
import { ParseError, type ParseLimits } from './types.ts'

/**
 * Checks an OOXML package (docx, xlsx) before any parser opens it, from its central directory:
 * the table of contents that every unzip library we use (fflate's unzipSync, JSZip in mammoth)
 * reads. Two steps share this code at upload and wherever a stored package is opened again:
 *
 * - `inspectZip` reads the structure without inflating anything: entry count, names (UP5),
 *   symlinks, duplicates, declared sizes and their total (UP3), impossible compression ratios,
 *   and every entry's local header, which must agree with its directory record. Entries may not
 *   overlap, and no bytes may sit between them where a stream-order reader would find an entry the
 *   directory does not list: both readers must see the same parts.
 * - `checkZip` then inflates every entry the directory lists, counting as it goes: an entry that
 *   inflates past its declared size is refused, so declared sizes cannot lie (UP3); and any DTD in
 *   an XML part, which OOXML never has and which XXE and billion-laughs need, is refused (UP4).
 *
 * Nothing is ever extracted to disk.
 */

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  /** Where the local header starts, and where its compressed data starts and ends. */
  headerOffset: number
  dataStart: number
  dataEnd: number
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const ZIP64_LOCATOR = 0x07064b50
/** Deflate cannot shrink data by more than about 1032:1; a larger declared ratio is a lie. */
const MAX_RATIO = 1100
/** A data descriptor (signature, CRC, two sizes) is at most 24 bytes, with 64-bit sizes. */
const MAX_DESCRIPTOR = 24

/** Little-endian fields of a ZIP record: where each sits from the record's start, and its width. */
type Layout = Record<string, readonly [offset: number, bytes: 2 | 4]>

/** The end of central directory record (APPNOTE 4.3.16). */
const END_RECORD = {
  disk: [4, 2],
  directoryDisk: [6, 2],
  onDisk: [8, 2],
  total: [10, 2],
  directorySize: [12, 4],
  directoryOffset: [16, 4],
} as const satisfies Layout
/** A central directory record (APPNOTE 4.3.12); 46 bytes before its name, extra and comment. */
const CENTRAL_RECORD = {
  madeBy: [4, 2],
  flags: [8, 2],
  method: [10, 2],
  compressedSize: [20, 4],
  size: [24, 4],
  nameLength: [28, 2],
  extraLength: [30, 2],
  commentLength: [32, 2],
  external: [38, 4],
  headerOffset: [42, 4],
} as const satisfies Layout
/** A local file header (APPNOTE 4.3.7); 30 bytes before its name and extra field. */
const LOCAL_RECORD = {
  flags: [6, 2],
  method: [8, 2],
  compressedSize: [18, 4],
  size: [22, 4],
  nameLength: [26, 2],
  extraLength: [28, 2],
} as const satisfies Layout

function readRecord<L extends Layout>(zip: Buffer, at: number, layout: L) {
  const record = {} as { [K in keyof L]: number }
  for (const [key, [offset, bytes]] of Object.entries(layout) as [keyof L, Layout[string]][]) {
    record[key] = bytes === 2 ? zip.readUInt16LE(at + offset) : zip.readUInt32LE(at + offset)
  }
  return record
}

const damaged = (why: string) =>
  new ParseError(`The file is damaged or not a valid Office document (${why}) and was not opened`)
const mismatch = () =>
  new ParseError(
    "The file's table of contents does not match its contents (a hidden, duplicated or overlapping part) and it was not opened",
  )
const tooMany = (max: number) =>
  new ParseError(`The file holds too many parts (${max.toLocaleString('en')} or more)`)
const tooBig = (max: number) =>
  new ParseError(
    `The file inflates to more than ${Math.round(max / 1024 / 1024).toLocaleString('en')} MB and was not opened`,
  )
const lied = () =>
  new ParseError(
    "The file's parts inflate to more than their declared sizes (a zip bomb) and it was not opened",
  )
const unsafe = () => new ParseError('The file contains parts with unsafe names and was not opened')

const unsafeName = (name: string) =>
  name === '' ||
  name.includes('\0') ||
  name.startsWith('/') ||
  name.startsWith('\\') ||
  /^[a-zA-Z]:/.test(name) ||
  name.split(/[\\/]/).some((part) => part === '..')

function findEnd(zip: Buffer) {
  // the end-of-central-directory record sits in the last 64 KiB + 22 bytes; readers scan from the
  // end for its signature, and so do we, so that we read the same record they do
  const start = Math.max(0, zip.length - 65_557)
  for (let i = zip.length - 22; i >= start; i--) {
    if (zip.readUInt32LE(i) === EOCD) return i
  }
  return -1
}

/** The package's parts as its central directory lists them, checked without inflating any. */
export function inspectZip(
  zip: Buffer,
  limits: Pick<ParseLimits, 'maxInflatedBytes' | 'maxZipEntries'>,
): ZipEntry[] {
  if (zip.length < 22) throw damaged('too short')
  const eocd = findEnd(zip)
  if (eocd < 0) throw damaged('no table of contents')
  const { disk, directoryDisk, onDisk, total, directorySize, directoryOffset } = readRecord(
    zip,
    eocd,
    END_RECORD,
  )
  if (
    total === 0xffff ||
    directorySize === 0xffffffff ||
    directoryOffset === 0xffffffff ||
    (eocd >= 20 && zip.readUInt32LE(eocd - 20) === ZIP64_LOCATOR)
  ) {
    throw damaged('ZIP64 packages are not accepted')
  }
  if (disk !== 0 || directoryDisk !== 0 || onDisk !== total) throw damaged('a split archive')
  if (total >= limits.maxZipEntries) throw tooMany(limits.maxZipEntries)
  if (directoryOffset + directorySize !== eocd) throw mismatch()

  const entries: ZipEntry[] = []
  const names = new Set<string>()
  let declared = 0
  let offset = directoryOffset
  for (let index = 0; index < total; index++) {
    if (offset + 46 > eocd || zip.readUInt32LE(offset) !== CENTRAL) throw mismatch()
    const {
      madeBy,
      flags,
      method,
      compressedSize,
      size,
      nameLength,
      extraLength,
      commentLength,
      external,
      headerOffset,
    } = readRecord(zip, offset, CENTRAL_RECORD)
    const end = offset + 46 + nameLength + extraLength + commentLength
    if (end > eocd) throw mismatch()
    const nameBytes = zip.subarray(offset + 46, offset + 46 + nameLength)
    const name = nameBytes.toString('utf8')
    offset = end

    if (compressedSize === 0xffffffff || size === 0xffffffff || headerOffset === 0xffffffff)
      throw damaged('ZIP64 packages are not accepted')
    if (flags & 0x1) throw damaged('an encrypted part')
    if (method !== 0 && method !== 8) throw damaged('an unknown compression method')
    if (method === 0 && compressedSize !== size) throw mismatch()
    if (size > compressedSize * MAX_RATIO + 1024) throw mismatch()
    // Unix hosts keep the file mode in the upper half of the external attributes
    const mode = madeBy >> 8 === 3 ? external >>> 16 : 0
    if (unsafeName(name) || (mode & 0o170000) === 0o120000) throw unsafe()
    const key = name.replace(/\\/g, '/').toLowerCase()
    if (names.has(key)) throw mismatch()
    names.add(key)
    declared += size
    if (declared >= limits.maxInflatedBytes) throw tooBig(limits.maxInflatedBytes)

    // the local header must describe the same part
    if (headerOffset + 30 > directoryOffset || zip.readUInt32LE(headerOffset) !== LOCAL)
      throw mismatch()
    const local = readRecord(zip, headerOffset, LOCAL_RECORD)
    const dataStart = headerOffset + 30 + local.nameLength + local.extraLength
    const localName = zip.subarray(headerOffset + 30, headerOffset + 30 + local.nameLength)
    if (local.method !== method || !localName.equals(nameBytes)) throw mismatch()
    // without a data descriptor the local sizes are what a stream-order reader goes by
    if (!(local.flags & 0x8) && (local.compressedSize !== compressedSize || local.size !== size))
      throw mismatch()
    const dataEnd = dataStart + compressedSize
    if (dataEnd > directoryOffset) throw mismatch()
    entries.push({ name, method, compressedSize, size, headerOffset, dataStart, dataEnd })
  }
  if (offset !== eocd) throw mismatch()

  // parts laid end to end from the start: no overlap, and nothing hidden between them
  const laid = [...entries].sort((a, b) => a.headerOffset - b.headerOffset)
  let cursor = 0
  for (const entry of laid) {
    if (entry.headerOffset < cursor) throw mismatch()
    checkGap(cursor, entry.headerOffset)
    cursor = entry.dataEnd
  }
  checkGap(cursor, directoryOffset)
  return entries
}

/**
 * Between two parts only a data descriptor may sit (at most 24 bytes): too small for the 30-byte
 * local header a hidden part would need.
 */
function checkGap(from: number, to: number) {
  if (to - from > MAX_DESCRIPTOR) throw mismatch()
}

const DTD = /<!(DOCTYPE|ENTITY)/i
const XML_PART = /\.(xml|rels|vml)$/i
/** Compressed input is fed in slices, so that no single step inflates more than ~16 MB. */
const SLICE = 16 * 1024

/**
 * The full check: the structure (`inspectZip`), then every listed part inflated with a running
 * count that stops the moment a part exceeds its declared size or the package its total (UP3),
 * and any DTD in an XML part (UP4).
 */
export function checkZip(
  zip: Buffer,
  limits: Pick<ParseLimits, 'maxInflatedBytes' | 'maxZipEntries'>,
) {
  const entries = inspectZip(zip, limits)
  let total = 0
  for (const entry of entries) {
    const data = zip.subarray(entry.dataStart, entry.dataEnd)
    const isXml = XML_PART.test(entry.name)
    let inflated = 0
    let tail = ''
    let failure: Error | null = null
    const take = (chunk: Uint8Array) => {
      if (failure) return
      inflated += chunk.length
      total += chunk.length
      if (inflated > entry.size) {
        failure = lied()
        return
      }
      if (total >= limits.maxInflatedBytes) {
        failure = tooBig(limits.maxInflatedBytes)
        return
      }
      if (isXml) {
        const text =
          tail + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1')
        if (DTD.test(text)) {
          failure = new ParseError(
            'The file contains a document type definition, which Office files never need, and was not opened',
          )
          return
        }
        tail = text.slice(-16)
      }
    }
    if (entry.method === 0) take(data)
    else {
      const inflate = new Inflate((chunk) => take(chunk))
      try {
        for (let at = 0; at < data.length && !failure; at += SLICE) {
          const end = Math.min(data.length, at + SLICE)
          inflate.push(data.subarray(at, end), end === data.length)
        }
        if (data.length === 0) inflate.push(new Uint8Array(0), true)
      } catch {
        failure ??= damaged('a part could not be inflated')
      }
    }
    if (failure) throw failure
    if (inflated !== entry.size) throw mismatch()
  }
}
