import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from 'fflate'
import { Parser } from 'htmlparser2'
import { decodeXml, escapeXml } from '../ingest/xml.ts'
import { neutralise } from './patch-xlsx.ts'

/**
 * Word questionnaires: the body's top-level tables (rows of cells, with where each cell sits in the
 * XML so that answers can be written into it) and its top-level paragraphs (numbered questions).
 * Export fills answer cells of tables, and adds an answer paragraph after a numbered question;
 * every other byte of the package stays as it was.
 */

interface Span {
  /** Offset just after the element's start tag, and of its end tag. */
  inner: number
  end: number
}

export interface DocxCell {
  text: string
  span: Span
  /** The first paragraph's properties and first run's properties, to style what is written. */
  pPr: string
  rPr: string
}

export interface DocxLayout {
  xml: string
  tables: DocxCell[][][]
  /** Top-level paragraphs; `listed` when Word numbers them itself (a list item). */
  paragraphs: { text: string; end: number; listed: boolean }[]
}

const DOCUMENT = 'word/document.xml'

export function readDocx(buffer: Uint8Array): DocxLayout {
  const files = unzipSync(buffer, { filter: (file) => file.name === DOCUMENT })
  const data = files[DOCUMENT]
  if (!data) throw new Error('The file has no document body')
  const xml = strFromU8(data)
  const tables: DocxCell[][][] = []
  const paragraphs: { text: string; end: number; listed: boolean }[] = []
  let listed = false
  let tableDepth = 0
  let table: DocxCell[][] | null = null
  let row: DocxCell[] | null = null
  let cell: DocxCell | null = null
  let paragraph: string | null = null
  let paragraphText = ''
  let inText = false
  let inRun = false
  let capture: { name: string; start: number; into: 'pPr' | 'rPr' } | null = null
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'w:tbl') {
          tableDepth += 1
          if (tableDepth === 1) table = []
        } else if (tableDepth === 1 && name === 'w:tr') row = []
        else if (tableDepth === 1 && name === 'w:tc') {
          cell = {
            text: '',
            span: { inner: parser.endIndex + 1, end: -1 },
            pPr: '',
            rPr: '',
          }
        } else if (name === 'w:p') {
          paragraph = ''
          listed = false
          paragraphText = ''
        } else if (name === 'w:t') inText = true
        else if (name === 'w:tab' && paragraph !== null) paragraphText += '\t'
        else if ((name === 'w:br' || name === 'w:cr') && paragraph !== null) paragraphText += '\n'
        else if (name === 'w:r') inRun = true
        else if (name === 'w:numPr' && paragraph !== null) listed = true
        if (tableDepth === 1 && cell && !capture) {
          if (name === 'w:pPr' && !inRun && !cell.pPr)
            capture = { name, start: parser.startIndex, into: 'pPr' }
          else if (name === 'w:rPr' && inRun && !cell.rPr)
            capture = { name, start: parser.startIndex, into: 'rPr' }
        }
      },
      ontext(text) {
        if (inText && paragraph !== null) paragraphText += text
      },
      onclosetag(name) {
        if (capture && name === capture.name && cell) {
          cell[capture.into] = xml.slice(capture.start, parser.endIndex + 1)
          capture = null
        }
        if (name === 'w:t') inText = false
        else if (name === 'w:r') inRun = false
        else if (name === 'w:p' && paragraph !== null) {
          const text = decodeXml(paragraphText)
          if (tableDepth === 0) paragraphs.push({ text, end: parser.endIndex + 1, listed })
          else if (cell) cell.text = cell.text ? `${cell.text}\n${text}` : text
          paragraph = null
        } else if (tableDepth === 1 && name === 'w:tc' && cell && row) {
          cell.span.end = parser.startIndex
          cell.text = cell.text.trim()
          row.push(cell)
          cell = null
        } else if (tableDepth === 1 && name === 'w:tr' && row && table) {
          table.push(row)
          row = null
        } else if (name === 'w:tbl') {
          if (tableDepth === 1 && table) tables.push(table)
          tableDepth -= 1
        }
      },
    },
    { xmlMode: true, decodeEntities: false },
  )
  parser.write(xml)
  parser.end()
  return { xml, tables, paragraphs }
}

/** Paragraphs for a text: one per line, with the given properties. */
function paragraphsFor(value: string, pPr: string, rPr: string) {
  return neutralise(value)
    .split(/\r?\n/)
    .map(
      (line) =>
        `<w:p>${pPr}<w:r>${rPr}<w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>`,
    )
    .join('')
}

export type DocxWrite =
  | { type: 'cell'; table: number; row: number; cell: number; value: string }
  | { type: 'after_paragraph'; paragraph: number; value: string }

/** Writes answers into a copy of the document; every other part of the package is unchanged. */
export function patchDocx(original: Uint8Array, writes: DocxWrite[]) {
  const layout = readDocx(original)
  const edits: { start: number; end: number; text: string }[] = []
  for (const write of writes) {
    if (write.type === 'cell') {
      const cell = layout.tables[write.table]?.[write.row]?.[write.cell]
      if (!cell) continue
      // keep the cell's properties; replace its paragraphs
      const inner = layout.xml.slice(cell.span.inner, cell.span.end)
      const tcPr = /^\s*<w:tcPr\b[\s\S]*?<\/w:tcPr>|^\s*<w:tcPr\b[^>]*\/>/.exec(inner)?.[0] ?? ''
      edits.push({
        start: cell.span.inner,
        end: cell.span.end,
        text: tcPr + paragraphsFor(write.value, cell.pPr, cell.rPr),
      })
    } else {
      const paragraph = layout.paragraphs[write.paragraph]
      if (!paragraph) continue
      edits.push({
        start: paragraph.end,
        end: paragraph.end,
        text: paragraphsFor(write.value, '', ''),
      })
    }
  }
  edits.sort((a, b) => b.start - a.start)
  let xml = layout.xml
  for (const edit of edits) xml = xml.slice(0, edit.start) + edit.text + xml.slice(edit.end)
  const files = unzipSync(original)
  const output: Zippable = {}
  for (const [name, data] of Object.entries(files))
    output[name] = name === DOCUMENT ? strToU8(xml) : data
  return Buffer.from(zipSync(output, { level: 6 }))
}
