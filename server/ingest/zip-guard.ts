import { Unzip, UnzipInflate } from 'fflate'
import { ParseError, type ParseLimits } from './types.ts'

/**
 * Checks an OOXML package (docx, xlsx) before any parser opens it: entry count and declared sizes
 * from the central directory, entry names and symlinks (UP5), then the real inflated size with a
 * running counter that stops at the cap, because declared sizes can lie (UP3), and any DTD in an
 * XML part, which OOXML never has legitimately and which XXE and billion-laughs need (UP4).
 * Nothing is ever extracted to disk.
 */

interface CentralEntry {
  name: string
  declaredSize: number
  symlink: boolean
}

const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50

function readCentralDirectory(zip: Buffer, maxEntries: number): CentralEntry[] {
  // the end-of-central-directory record sits in the last 64 KiB + 22 bytes
  const start = Math.max(0, zip.length - 65_557)
  let eocd = -1
  for (let i = zip.length - 22; i >= start; i--) {
    if (zip.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw new ParseError('The file is damaged: it is not a valid Office document')
  const total = zip.readUInt16LE(eocd + 10)
  let offset = zip.readUInt32LE(eocd + 16)
  if (total >= maxEntries) {
    throw new ParseError(
      `The file holds too many parts (${maxEntries.toLocaleString('en')} or more)`,
    )
  }
  const entries: CentralEntry[] = []
  while (offset + 46 <= zip.length && zip.readUInt32LE(offset) === CENTRAL_SIGNATURE) {
    if (entries.length >= maxEntries) {
      throw new ParseError(
        `The file holds too many parts (${maxEntries.toLocaleString('en')} or more)`,
      )
    }
    const madeBy = zip.readUInt16LE(offset + 4) >> 8
    const declaredSize = zip.readUInt32LE(offset + 24)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const external = zip.readUInt32LE(offset + 38)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    // Unix hosts keep the file mode in the upper half of the external attributes
    const mode = madeBy === 3 ? external >>> 16 : 0
    entries.push({ name, declaredSize, symlink: (mode & 0o170000) === 0o120000 })
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

const unsafeName = (name: string) =>
  name.startsWith('/') ||
  name.startsWith('\\') ||
  /^[a-zA-Z]:/.test(name) ||
  name.split(/[\\/]/).some((part) => part === '..')

const DTD = /<!(DOCTYPE|ENTITY)/i

export function checkZip(
  zip: Buffer,
  limits: Pick<ParseLimits, 'maxInflatedBytes' | 'maxZipEntries'>,
) {
  const entries = readCentralDirectory(zip, limits.maxZipEntries)
  let declared = 0
  for (const entry of entries) {
    if (unsafeName(entry.name) || entry.symlink) {
      throw new ParseError('The file contains parts with unsafe names and was not opened')
    }
    declared += entry.declaredSize
  }
  const tooBig = () =>
    new ParseError(
      `The file inflates to more than ${Math.round(limits.maxInflatedBytes / 1024 / 1024).toLocaleString('en')} MB and was not opened`,
    )
  if (declared >= limits.maxInflatedBytes) throw tooBig()

  let inflated = 0
  let count = 0
  let failure: Error | null = null
  const unzip = new Unzip((file) => {
    count += 1
    if (count > limits.maxZipEntries) {
      failure ??= new ParseError('The file holds too many parts')
      return
    }
    if (unsafeName(file.name)) {
      failure ??= new ParseError('The file contains parts with unsafe names and was not opened')
      return
    }
    const isXml = /\.(xml|rels|vml)$/i.test(file.name)
    let tail = ''
    file.ondata = (error, chunk) => {
      if (failure) return
      if (error) {
        failure = new ParseError('The file is damaged and could not be read')
        return
      }
      inflated += chunk.length
      if (inflated >= limits.maxInflatedBytes) {
        failure = tooBig()
        file.terminate()
        return
      }
      if (isXml) {
        const text =
          tail + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1')
        if (DTD.test(text)) {
          failure = new ParseError(
            'The file contains a document type definition, which Office files never need, and was not opened',
          )
          file.terminate()
          return
        }
        tail = text.slice(-16)
      }
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  // feed in slices so that a bomb is stopped early instead of after one huge inflate
  const step = 64 * 1024
  for (let offset = 0; offset < zip.length && !failure; offset += step) {
    const end = Math.min(zip.length, offset + step)
    unzip.push(zip.subarray(offset, end), end === zip.length)
  }
  if (failure) throw failure
}
