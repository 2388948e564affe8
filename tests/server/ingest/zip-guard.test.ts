import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { detectFileKind } from '../../../server/ingest/index.ts'
import { DEFAULT_PARSE_LIMITS } from '../../../server/ingest/types.ts'
import { checkZip, inspectZip } from '../../../server/ingest/zip-guard.ts'
import { fillOriginal } from '../../../server/workbooks/fill.ts'
import { makeDocx, makeXlsx } from '../../fixtures/documents.ts'
import { deflatedZeros, makeDisagreeingZip, makeZip } from '../../fixtures/zip.ts'

/**
 * Issue 14 fix 1 (UP3, UP5): the zip guard reads the central directory that unzip libraries read,
 * not the stream of local headers, so a part listed only in the directory, listed twice, hidden
 * between parts or described differently by its local header is refused before anything is
 * inflated; the same check runs at upload (detection) and again before export opens the file.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'quire-zip-guard-'))
const write = (name: string, data: Buffer) => {
  const file = path.join(dir, name)
  writeFileSync(file, data)
  return file
}

const honestParts = [
  {
    name: '[Content_Types].xml',
    data: Buffer.from('<?xml version="1.0"?><Types/>'),
  },
  {
    name: 'xl/workbook.xml',
    data: Buffer.from(
      '<workbook xmlns:r="r"><sheets><sheet name="Q" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
  },
  {
    name: 'xl/_rels/workbook.xml.rels',
    data: Buffer.from(
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
  },
  { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet><sheetData/></worksheet>') },
]

describe('the zip guard reads what unzip libraries read', () => {
  it('accepts honest packages from every writer we meet', async () => {
    const packages = [
      makeZip(honestParts),
      await makeXlsx([{ question: 'Do you encrypt data at rest?', answer: 'Yes' }]),
      makeDocx([{ paragraph: 'Security overview' }]),
      Buffer.from(
        zipSync({ 'a.xml': new TextEncoder().encode('<a/>'), 'b/c.bin': new Uint8Array(10) }),
      ),
    ]
    for (const zip of packages) {
      expect(() => checkZip(zip, DEFAULT_PARSE_LIMITS)).not.toThrow()
    }
  })

  it('refuses a part listed only in the central directory before inflating it', async () => {
    // 64 MB of zeros hidden inside an innocent stored part: a stream-order walk never sees it
    const hidden = {
      name: 'xl/worksheets/sheet2.xml',
      deflated: await deflatedZeros(64 * 1024 * 1024),
    }
    const zip = makeDisagreeingZip(honestParts, hidden, 'inside')
    // what the export's unzip library would have inflated
    const listed = Object.keys(unzipSync(new Uint8Array(zip), { filter: () => false }))
    expect(listed).toEqual([])
    const started = process.memoryUsage().arrayBuffers
    expect(() => inspectZip(zip, DEFAULT_PARSE_LIMITS)).toThrow(/table of contents does not match/)
    expect(() => checkZip(zip, DEFAULT_PARSE_LIMITS)).toThrow(/table of contents does not match/)
    // refused from the structure: nothing near the hidden 64 MB was inflated
    expect(process.memoryUsage().arrayBuffers - started).toBeLessThan(32 * 1024 * 1024)
  }, 30_000)

  it('refuses a part listed twice, a part hidden between parts, and a local header that lies', async () => {
    const hidden = { name: 'xl/worksheets/sheet9.xml', deflated: await deflatedZeros(1024 * 1024) }
    for (const how of ['twice', 'between', 'lying-local'] as const) {
      const zip = makeDisagreeingZip(honestParts, hidden, how)
      expect(() => inspectZip(zip, DEFAULT_PARSE_LIMITS), how).toThrow(
        /table of contents does not match/,
      )
    }
  })

  it('refuses declared sizes that deflate cannot produce, and parts that inflate past them', async () => {
    const bomb = await deflatedZeros(8 * 1024 * 1024)
    // a declared ratio past what deflate can reach is a lie, refused without inflating
    const impossible = makeZip([
      ...honestParts,
      { name: 'xl/sharedStrings.xml', data: Buffer.from('<sst/>'), declaredSize: 900_000_000 },
    ])
    expect(() => inspectZip(impossible, DEFAULT_PARSE_LIMITS)).toThrow(/does not match/)
    // an under-declared part is stopped as soon as it passes its declared size
    const under = makeZip([
      ...honestParts,
      { name: 'xl/sharedStrings.xml', deflated: bomb, declaredSize: 4096 },
    ])
    expect(() => inspectZip(under, DEFAULT_PARSE_LIMITS)).not.toThrow()
    expect(() => checkZip(under, DEFAULT_PARSE_LIMITS)).toThrow(/more than their declared sizes/)
    // the total of declared sizes is capped before anything is inflated
    const big = makeZip([...honestParts, { name: 'xl/big.xml', deflated: bomb }])
    expect(() =>
      inspectZip(big, { maxInflatedBytes: 4 * 1024 * 1024, maxZipEntries: 100 }),
    ).toThrow(/inflates to more than 4 MB/)
  })

  it('refuses the crafted workbook at upload detection with a clear reason (fix 1)', async () => {
    const hidden = {
      name: 'xl/worksheets/sheet2.xml',
      deflated: await deflatedZeros(8 * 1024 * 1024),
    }
    // a real workbook's parts, so that the file is recognised as a workbook by its bytes
    const real = unzipSync(
      new Uint8Array(await makeXlsx([{ question: 'Do you encrypt data?', answer: 'Yes' }])),
    )
    const parts = Object.entries(real).map(([name, data]) => ({ name, data: Buffer.from(data) }))
    const file = write('crafted.xlsx', makeDisagreeingZip(parts, hidden, 'inside'))
    expect(await detectFileKind(file, 'crafted.xlsx')).toMatchObject({
      ok: false,
      reason: 'unsafe',
      kind: 'xlsx',
      message: expect.stringMatching(/table of contents does not match its contents/),
    })
    const honest = write('honest.xlsx', makeZip(parts))
    expect(await detectFileKind(honest, 'honest.xlsx')).toMatchObject({ ok: true, kind: 'xlsx' })
  })

  it('export checks a stored package again before it opens it', async () => {
    const hidden = { name: 'xl/worksheets/sheet2.xml', deflated: await deflatedZeros(1024 * 1024) }
    const zip = makeDisagreeingZip(honestParts, hidden, 'inside')
    expect(() => fillOriginal(zip, { kind: 'xlsx', writes: [] }, DEFAULT_PARSE_LIMITS)).toThrow(
      /table of contents does not match/,
    )
  })
})
