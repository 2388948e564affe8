import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { constants, createDeflate } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import {
  detectFileKind,
  parseFile,
  readTable,
  recogniseQaColumns,
} from '../../../server/ingest/index.ts'
import { workerEnvironment } from '../../../server/ingest/pool.ts'
import { makeCsv, makeDocx, makeHtml, makePdf, makeXlsx } from '../../fixtures/documents.ts'
import { deflatedZeros, makeZip } from '../../fixtures/zip.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'quire-ingest-'))
const write = (name: string, data: Buffer) => {
  const file = path.join(dir, name)
  writeFileSync(file, data)
  return file
}

describe('detection by content (UP1)', () => {
  it('recognises each kind and refuses a mismatch or an unsupported file', async () => {
    const pdf = write('a.pdf', await makePdf([['Hello']]))
    expect(await detectFileKind(pdf, 'a.pdf')).toMatchObject({ ok: true, kind: 'pdf' })
    expect(await detectFileKind(pdf, 'a.xlsx')).toMatchObject({
      ok: false,
      reason: 'mismatch',
      kind: 'pdf',
    })
    const docx = write('a.docx', makeDocx([{ paragraph: 'Hi' }]))
    expect(await detectFileKind(docx, 'a.docx')).toMatchObject({ ok: true, kind: 'docx' })
    const xlsx = write('a.xlsx', await makeXlsx([{ question: 'Q?', answer: 'Yes' }]))
    expect(await detectFileKind(xlsx, 'a.xlsx')).toMatchObject({ ok: true, kind: 'xlsx' })
    expect(await detectFileKind(xlsx, 'a.pdf')).toMatchObject({ ok: false, reason: 'mismatch' })
    const csv = write('a.csv', makeCsv([{ question: 'Q?', answer: 'A' }]))
    expect(await detectFileKind(csv, 'a.csv')).toMatchObject({ ok: true, kind: 'csv' })
    expect(await detectFileKind(csv, 'a.pdf')).toMatchObject({ ok: false, reason: 'mismatch' })
    const exe = write('a.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]))
    expect(await detectFileKind(exe, 'a.exe')).toMatchObject({ ok: false, reason: 'unsupported' })
    expect(await detectFileKind(exe, 'a.txt')).toMatchObject({ ok: false, reason: 'mismatch' })
  })
})

describe('parsers', () => {
  it('reads a PDF page by page, dropping running headers', async () => {
    const topics = ['access reviews', 'backup of region 2', 'incident response']
    const pages = [1, 2, 3].map((n) => [
      'Northwind Confidential',
      `Section ${n} covers ${topics[n - 1]} in detail for auditors.`,
      `Every control in this section is tested twice a year by the internal audit team.`,
      `Page ${n} of 3`,
    ])
    const file = write('doc.pdf', await makePdf(pages))
    const result = await parseFile(file, 'pdf')
    expect(result.pages).toBe(3)
    const page2 = result.passages.filter((p) => p.location.page === 2)
    expect(page2.map((p) => p.text).join(' ')).toContain('backup of region 2')
    expect(result.passages.some((p) => p.text.includes('Northwind Confidential'))).toBe(false)
    expect(result.title).toBe('Security Overview')
  })

  it('reads a DOCX with headings and a Q/A table', async () => {
    const file = write(
      'doc.docx',
      makeDocx([
        { heading: 'Encryption' },
        { paragraph: 'Data at rest is encrypted with AES-256 on every volume.' },
        { heading: 'Questions' },
        {
          table: [
            ['Question', 'Answer'],
            ['Do you support SSO?', 'Yes, through SAML 2.0.'],
          ],
        },
      ]),
    )
    const result = await parseFile(file, 'docx')
    const enc = result.passages.find((p) => p.text.includes('AES-256'))
    expect(enc?.location.heading).toBe('Encryption')
    const qa = result.passages.find((p) => p.qa)
    expect(qa?.qa).toEqual({ question: 'Do you support SSO?', answer: 'Yes, through SAML 2.0.' })
    expect(qa?.location.heading).toBe('Questions')
  })

  it('reads an XLSX: merged title, header, section heading, Q/A rows, formula value, hidden sheet skipped', async () => {
    const file = write(
      'q.xlsx',
      await makeXlsx([
        { question: 'Is data encrypted at rest?', answer: 'Yes', comment: 'AES-256 with KMS' },
        {
          question: 'Do you run penetration tests?',
          answer: 'Yes',
          comment: 'Yearly by a third party',
        },
      ]),
    )
    const result = await parseFile(file, 'xlsx', { name: 'q.xlsx' })
    const first = result.passages.find((p) => p.qa?.question === 'Is data encrypted at rest?')
    expect(first?.location).toMatchObject({
      sheet: 'Questions',
      row: 4,
      heading: 'Data protection',
    })
    expect(first?.qa?.answer).toContain('AES-256')
    expect(result.passages.some((p) => p.text.includes('Hidden list value'))).toBe(false)
    const table = await readTable(file, 'xlsx')
    const sheet = table.sheets[0]
    expect(table.sheets.map((s) => s.name)).toEqual(['Questions'])
    // the merged title fills its range; the formula reads as its cached value
    expect(sheet?.rows[0]?.slice(0, 4)).toEqual(Array(4).fill('Vendor security assessment'))
    expect(sheet?.rows[5]?.[1]).toBe('2')
  })

  it('reads a CSV with a byte-order mark, a section row and multi-line cells', async () => {
    const file = write(
      'q.csv',
      makeCsv([
        { question: 'Describe your backup policy.', answer: 'Daily backups.\nKept for 35 days.' },
      ]),
    )
    const result = await parseFile(file, 'csv', { name: 'Vendor answers.csv' })
    const qa = result.passages.find((p) => p.qa)
    expect(qa?.qa?.question).toBe('Describe your backup policy.')
    expect(qa?.qa?.answer).toBe('Daily backups.\nKept for 35 days.')
    expect(qa?.location).toMatchObject({
      sheet: 'Vendor answers',
      row: 3,
      heading: 'Access control',
    })
    const columns = recogniseQaColumns(
      [['\uFEFFQuestion', 'Answer']].map((r) => r.map((c) => c.replace('\uFEFF', ''))),
    )
    expect(columns).toMatchObject({ headerRow: 1, question: 0, answer: 1 })
  })

  it('reads the main content of an HTML page only', async () => {
    const file = write(
      'p.html',
      makeHtml('Trust Center', [
        { heading: 'Logging', text: 'Audit logs are kept for one year in write-once storage.' },
      ]),
    )
    const result = await parseFile(file, 'html')
    const text = result.passages.map((p) => p.text).join('\n')
    expect(text).toContain('Audit logs are kept for one year')
    expect(result.passages.find((p) => p.text.includes('Audit logs'))?.location.heading).toBe(
      'Logging',
    )
    for (const noise of ['Home Pricing', 'Footer copyright', 'script text', 'Site header'])
      expect(text).not.toContain(noise)
    expect(result.title).toBe('Trust Center')
  })

  it('reads Markdown headings and plain text paragraphs', async () => {
    const md = write(
      'n.md',
      Buffer.from(
        '# Runbook\n\n## Incident response\n\nWe page the **on-call** engineer within 15 minutes.\n',
      ),
    )
    const result = await parseFile(md, 'md')
    expect(result.passages[0]).toMatchObject({
      text: 'We page the on-call engineer within 15 minutes.',
      location: { heading: 'Incident response' },
    })
  })
})

/** Raw-deflates `size` zero bytes without holding them in memory. */
/** Zeros compressed as a zlib (FlateDecode) stream, streamed so that the input never exists. */
async function zlibZeros(size: number) {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION })
  const chunks: Buffer[] = []
  deflate.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise((resolve) => deflate.on('end', resolve))
  const block = Buffer.alloc(16 * 1024 * 1024)
  for (let written = 0; written < size; written += block.length) {
    if (!deflate.write(block.subarray(0, Math.min(block.length, size - written))))
      await new Promise((r) => deflate.once('drain', r))
  }
  deflate.end()
  await done
  return Buffer.concat(chunks)
}

/** A one-page PDF whose page content is the given FlateDecode stream. */
function pdfWithContent(stream: Buffer) {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')]
  const offsets: number[] = []
  let length = parts[0]?.length ?? 0
  const add = (chunk: Buffer) => {
    parts.push(chunk)
    length += chunk.length
  }
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>',
  ]
  objects.forEach((body, index) => {
    offsets.push(length)
    add(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`))
  })
  offsets.push(length)
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`))
  add(stream)
  add(Buffer.from('\nendstream\nendobj\n'))
  const xref = length
  add(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  )
  return Buffer.concat(parts)
}

const xlsxParts = (sheetXml: string) => [
  {
    name: '[Content_Types].xml',
    data: Buffer.from(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
  },
  {
    name: 'xl/workbook.xml',
    data: Buffer.from(
      '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
  },
  {
    name: 'xl/_rels/workbook.xml.rels',
    data: Buffer.from(
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
  },
  { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheetXml) },
]

describe('xlsx cells', () => {
  it('reads cached formula results, also when the value keeps its spaces', async () => {
    const file = write(
      'cached.xlsx',
      makeZip(
        xlsxParts(
          '<worksheet><sheetData><row r="1"><c r="A1" t="str"><f>VLOOKUP(B1,Q!A:B,2)</f><v xml:space="preserve">Does your product lock accounts? </v></c><c r="B1"><f>1+1</f><v>2</v></c></row></sheetData></worksheet>',
        ),
      ),
    )
    const table = await readTable(file, 'xlsx')
    expect(table.sheets[0]?.rows[0]).toEqual(['Does your product lock accounts?', '2'])
  })
})

describe('hostile files', () => {
  it('UP3: a zip inflating past 1 GB is refused mid-inflate, with lying headers too, and RSS stays under 512 MB', async () => {
    const bomb = await deflatedZeros(1100 * 1024 * 1024)
    const honest = write('bomb.docx', makeZip([{ name: 'word/document.xml', deflated: bomb }]))
    await expect(parseFile(honest, 'docx')).rejects.toThrow(/inflates to more than/)
    const lying = write(
      'lying.docx',
      makeZip([{ name: 'word/document.xml', deflated: bomb, declaredSize: 1000 }]),
    )
    await expect(parseFile(lying, 'docx')).rejects.toThrow(/more than their declared sizes/)
    expect(process.memoryUsage().rss).toBeLessThan(512 * 1024 * 1024)
  }, 60_000)

  it('UP3: a zip of 10,000 entries is refused', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      name: `x/${i}.xml`,
      data: Buffer.from('<a/>'),
    }))
    const file = write('many.xlsx', makeZip(entries))
    await expect(parseFile(file, 'xlsx')).rejects.toThrow(/too many parts/)
  }, 30_000)

  it('UP4: XXE and billion laughs leak nothing, reach no canary, and finish within 2 s', async () => {
    let connections = 0
    const canary = createServer((socket) => {
      connections += 1
      socket.destroy()
    })
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve))
    const port = (canary.address() as { port: number }).port
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd"><!ENTITY y SYSTEM "http://127.0.0.1:${port}/x">]>`
    const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>`
    const files = [
      write(
        'xxe.docx',
        makeDocx(
          [{ paragraph: 'x' }],
          (body) =>
            `${xxe}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:p><w:r><w:t>&x;&y;</w:t></w:r></w:p></w:body></w:document>`,
        ),
      ),
      write(
        'laughs.docx',
        makeDocx(
          [{ paragraph: 'x' }],
          (body) =>
            `${laughs}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:p><w:r><w:t>&d;</w:t></w:r></w:p></w:body></w:document>`,
        ),
      ),
      write(
        'xxe.xlsx',
        makeZip(
          xlsxParts(
            `${xxe}<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&x;&y;</t></is></c></row></sheetData></worksheet>`,
          ),
        ),
      ),
    ]
    for (const file of files) {
      const started = Date.now()
      const kind = file.endsWith('xlsx') ? 'xlsx' : 'docx'
      const outcome = await parseFile(file, kind).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      )
      expect(outcome).not.toMatch(/root:|lollol/)
      expect(outcome).toMatch(/document type definition/)
      expect(Date.now() - started).toBeLessThan(2_000)
    }
    expect(connections).toBe(0)
    canary.close()
  })

  it('UP5: entries with ../, absolute paths or symlinks are refused and nothing is written outside', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'quire-slip-'))
    const before = readdirSync(parent)
    for (const [name, mode] of [
      ['../../evil.xml', undefined],
      ['/etc/evil.xml', undefined],
      ['xl/link.xml', 0o120777],
    ] as const) {
      const file = write(
        `slip-${Math.random()}.xlsx`,
        makeZip([
          ...xlsxParts('<worksheet><sheetData/></worksheet>'),
          { name, data: Buffer.from('<x/>'), mode },
        ]),
      )
      await expect(parseFile(file, 'xlsx')).rejects.toThrow(/unsafe names/)
    }
    expect(readdirSync(parent)).toEqual(before)
  })

  it('UP6: no xlsx package, __proto__ workbooks leave the prototype clean, pdf.js is patched', async () => {
    // the lock file is what `npm ls xlsx` reads: no xlsx package anywhere in the tree
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, unknown>
    }
    expect(
      Object.keys(lock.packages).filter((key) => /(^|\/)node_modules\/xlsx$/.test(key)),
    ).toEqual([])
    const file = write(
      'proto.xlsx',
      makeZip([
        ...xlsxParts(
          '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>__proto__</t></is></c><c r="B1" t="inlineStr"><is><t>constructor</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>{"polluted":true}</t></is></c></row></sheetData></worksheet>',
        ).map((p) =>
          p.name === 'xl/workbook.xml'
            ? {
                ...p,
                data: Buffer.from(
                  '<workbook xmlns:r="r"><sheets><sheet name="__proto__" sheetId="1" r:id="rId1"/></sheets></workbook>',
                ),
              }
            : p,
        ),
      ]),
    )
    const result = await readTable(file, 'xlsx')
    expect(result.sheets[0]?.name).toBe('__proto__')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.keys(Object.prototype)).toEqual([])
    const { getResolvedPDFJS } = await import('unpdf')
    const { version } = await getResolvedPDFJS()
    const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number)
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(4_002_067)
  })

  it('UP7: a parser past its deadline is stopped and fails while the event loop stays responsive', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      question: `Question number ${i} about encryption?`,
      answer: `Answer ${i}`,
    }))
    const file = write('big.csv', makeCsv(rows))
    let maxLag = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      maxLag = Math.max(maxLag, now - last - 10)
      last = now
    }, 10)
    await expect(parseFile(file, 'csv', { limits: { timeoutMs: 50 } })).rejects.toThrow(
      /took longer than/,
    )
    clearInterval(timer)
    expect(maxLag).toBeLessThan(100)
  })

  it('UP3, UP7: a PDF flate bomb is stopped by the resident-memory cap, not only the heap cap (issue 14 fix 3)', async () => {
    // 700 MB of zeros in one FlateDecode content stream: pdf.js inflates it into one growing
    // buffer outside the JS heap, which --max-old-space-size never sees
    const zeros = await zlibZeros(700 * 1024 * 1024)
    const file = write('flate-bomb.pdf', pdfWithContent(zeros))
    await expect(parseFile(file, 'pdf', { limits: { rssMb: 300 } })).rejects.toThrow(
      'Reading the file needed more than 300 MB of memory and was stopped',
    )
  }, 60_000)

  it('parser processes get only the environment they need to run, never secrets (issue 14)', () => {
    const env = workerEnvironment({
      PATH: '/usr/bin',
      LANG: 'C.UTF-8',
      JWT_SECRET: 'secret',
      DATABASE_URL: 'postgres://u:p@db/quire',
      SMTP_URL: 'smtp://u:p@mail',
      LLM_API_KEY: 'sk-x',
    })
    expect(env).toEqual({ NODE_OPTIONS: '', PATH: '/usr/bin', LANG: 'C.UTF-8' })
  })

  it('UP7: a parser that runs out of memory fails alone', async () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => ({
      question: `Question ${i} ${'x'.repeat(200)}?`,
      answer: `Answer ${'y'.repeat(200)}`,
    }))
    const file = write('heavy.csv', makeCsv(rows))
    await expect(parseFile(file, 'csv', { limits: { memoryMb: 64 } })).rejects.toThrow(
      /too large or complex|could not be read/,
    )
  }, 30_000)
})

afterAll(() => undefined)
