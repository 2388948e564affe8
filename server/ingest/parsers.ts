import { readFile } from 'node:fs/promises'
import path from 'node:path'
import mammoth from 'mammoth'
import Papa from 'papaparse'
import { getDocumentProxy } from 'unpdf'
import type { FileKind } from '../../contract/knowledge.ts'
import { analyseSheets } from '../workbooks/analyse.ts'
import { type Block, toPassages } from './chunk.ts'
import { htmlToBlocks } from './html.ts'
import { rowsToBlocks } from './table.ts'
import { ParseError, type ParseLimits, type ParseResult, type TableSheet } from './types.ts'
import { readWorkbook, readXlsx } from './xlsx.ts'
import { checkZip } from './zip-guard.ts'

/**
 * The parsers proper. They run inside a worker thread (see index.ts), which caps their time and
 * memory; nothing here touches the network or writes to disk.
 */

type Progress = (fraction: number) => void

/** Decodes text files: UTF-8 (byte-order mark dropped) or UTF-16 with a byte-order mark. */
export function decodeText(buffer: Buffer): string {
  if (buffer[0] === 0xff && buffer[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(buffer.subarray(2))
  if (buffer[0] === 0xfe && buffer[1] === 0xff)
    return new TextDecoder('utf-16be').decode(buffer.subarray(2))
  return new TextDecoder('utf-8').decode(buffer).replace(/^\uFEFF/, '')
}

/* ------------------------------------------------------------------ PDF */

async function parsePdf(buffer: Buffer, onProgress: Progress): Promise<ParseResult> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    pdf = await getDocumentProxy(new Uint8Array(buffer), {
      // pdf.js 5 no longer evaluates font programs; the flag stays off for older builds (UP6)
      ...({ isEvalSupported: false } as object),
      useSystemFonts: false,
      disableFontFace: true,
      stopAtErrors: false,
      verbosity: 0,
    })
  } catch (error) {
    const name = (error as { name?: string }).name
    if (name === 'PasswordException') throw new ParseError('The PDF is password-protected')
    throw new ParseError('The file is damaged or not a valid PDF')
  }
  try {
    const pages: string[][] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      let line = ''
      const lines: string[] = []
      for (const item of content.items) {
        if (!('str' in item)) continue
        line += item.str
        if (item.hasEOL) {
          lines.push(line)
          line = ''
        }
      }
      if (line) lines.push(line)
      pages.push(lines.map((text) => text.replace(/\s+/g, ' ').trim()))
      page.cleanup()
      onProgress(number / pdf.numPages)
    }
    // running headers and footers: short lines that recur on most pages
    const recurring = new Set<string>()
    if (pages.length >= 3) {
      const counts = new Map<string, number>()
      for (const lines of pages) {
        // only the first and last lines of a page can be running headers or footers
        const edges = lines.filter(Boolean)
        const candidates = [...edges.slice(0, 2), ...edges.slice(-2)]
        for (const text of new Set(candidates.map((l) => l.replace(/\d+/g, '#')))) {
          if (text && text.length <= 80) counts.set(text, (counts.get(text) ?? 0) + 1)
        }
      }
      for (const [text, count] of counts)
        if (count >= Math.max(3, pages.length * 0.6)) recurring.add(text)
    }
    const blocks: Block[] = []
    pages.forEach((lines, index) => {
      const edges = lines.filter(Boolean)
      const edge = new Set([...edges.slice(0, 2), ...edges.slice(-2)])
      const kept = edges.filter(
        (text) => !(edge.has(text) && recurring.has(text.replace(/\d+/g, '#'))),
      )
      // join lines into paragraphs: hyphenated line ends rejoin, blank lines split
      const text = kept
        .join('\n')
        .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
        .replace(/([^.!?:;\n])\n(?=\p{Ll})/gu, '$1 ')
      for (const paragraph of text.split(/\n{2,}|\n(?=[•▪◦\-–*]\s|\d+(\.\d+)*[.)]\s)/)) {
        if (paragraph?.trim()) blocks.push({ text: paragraph, location: { page: index + 1 } })
      }
    })
    let title: string | null = null
    try {
      const meta = await pdf.getMetadata()
      const info = meta.info as { Title?: unknown }
      title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : null
    } catch {
      title = null
    }
    return { passages: toPassages(blocks), pages: pdf.numPages, title }
  } finally {
    await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.()
  }
}

/* ------------------------------------------------------------------ DOCX */

async function parseDocx(
  buffer: Buffer,
  limits: ParseLimits,
  onProgress: Progress,
): Promise<ParseResult> {
  checkZip(buffer, limits)
  let html: string
  try {
    html = (await mammoth.convertToHtml({ buffer })).value
  } catch {
    throw new ParseError('The file is damaged or not a valid Word document')
  }
  onProgress(0.7)
  const { blocks } = htmlToBlocks(`<body>${html}</body>`)
  const title = blocks.find((block) => block.location.heading)?.location.heading ?? null
  return { passages: toPassages(blocks), pages: null, title }
}

/* ------------------------------------------------------------------ XLSX */

/** Every visible sheet's rows as text. Merged ranges: the value in every cell when `fillMerged`. */
function workbookSheets(buffer: Buffer, limits: ParseLimits, fillMerged: boolean): TableSheet[] {
  checkZip(buffer, limits)
  return readXlsx(buffer, { fillMerged })
}

async function parseXlsx(
  buffer: Buffer,
  limits: ParseLimits,
  onProgress: Progress,
): Promise<ParseResult> {
  checkZip(buffer, limits)
  const sheets = readWorkbook(buffer, { fillMerged: true }).sheets.filter((sheet) => !sheet.hidden)
  // a completed questionnaire: its questions and answers as analysis reads them (ID, question and
  // answer columns, dropdown values, the narrative beside them)
  const answered = questionnairePairs(sheets)
  // A completed questionnaire: what the organisation said is its answers. The rest of the
  // workbook (instructions, unanswered questions, guidance and analyst tabs, value lists) is the
  // template's text, not the organisation's evidence, and would be quoted as if it were.
  const completed = answered.size >= COMPLETED_MIN_ANSWERS
  const blocks: Block[] = []
  let dataRows = 0
  sheets.forEach((sheet, index) => {
    const result = rowsToBlocks(sheet.rows, sheet.name)
    for (const block of result.blocks) {
      const pair = answered.get(`${sheet.name}\u001f${block.location.row}`)
      if (pair) {
        block.qa = pair
        block.text = [pair.question, `Answer: ${pair.answer}`, block.text].join('\n')
      } else if (answered.size && block.qa) {
        // analyst copies and reference tabs of a questionnaire are not answers
        delete block.qa
      }
    }
    blocks.push(...(completed ? result.blocks.filter((block) => block.qa) : result.blocks))
    dataRows += result.dataRows
    onProgress((index + 1) / sheets.length)
  })
  return { passages: toPassages(blocks), pages: dataRows, title: null }
}

/** Answered questions from which a workbook is read as a completed questionnaire. */
const COMPLETED_MIN_ANSWERS = 5

/** Question and answer per answered row of a questionnaire (sheet and row as the key). */
function questionnairePairs(sheets: ReturnType<typeof readWorkbook>['sheets']) {
  const pairs = new Map<string, { question: string; answer: string }>()
  let tabs: ReturnType<typeof analyseSheets>
  try {
    tabs = analyseSheets(sheets)
  } catch {
    return pairs
  }
  for (const tab of tabs) {
    for (const question of tab.questions) {
      const target = question.target
      if (target?.type !== 'cell') continue
      const row = sheets.find((sheet) => sheet.name === target.sheet)?.rows[target.row - 1] ?? []
      let answer = target.column !== null ? (row[target.column] ?? '').trim() : ''
      if (target.marks?.length)
        answer = target.marks.find((m) => row[m.column]?.trim())?.label ?? ''
      const detail =
        target.comment !== null && target.comment !== target.column
          ? (row[target.comment] ?? '').trim()
          : ''
      if (!answer && !detail) continue
      // the answer and its narrative, separated by a blank line (see answering/engine.ts)
      pairs.set(`${target.sheet}\u001f${target.row}`, {
        question: question.text,
        answer:
          detail && detail !== answer
            ? `${answer || detail}\n\n${answer ? detail : ''}`.trim()
            : answer,
      })
    }
  }
  return pairs
}

/* ------------------------------------------------------------------ CSV, text, Markdown */

function csvRows(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    delimitersToGuess: [',', ';', '\t', '|'],
  })
  const rows = parsed.data.map((row) => row.map((cell) => String(cell ?? '').trim()))
  while (rows.length && !rows[rows.length - 1]?.some(Boolean)) rows.pop()
  return rows
}

const baseName = (name: string) => path.basename(name).replace(/\.[^.]+$/, '')

function parseCsv(buffer: Buffer, name: string): ParseResult {
  const rows = csvRows(decodeText(buffer))
  const sheet = baseName(name)
  const { blocks, dataRows } = rowsToBlocks(rows, sheet)
  return { passages: toPassages(blocks), pages: dataRows, title: null }
}

function parsePlain(text: string, markdown: boolean): ParseResult {
  const blocks: Block[] = []
  let heading: string | undefined
  let title: string | null = null
  let inFence = false
  let buffer: string[] = []
  const flush = () => {
    const body = buffer.join('\n').trim()
    if (body) blocks.push({ text: body, location: heading ? { heading } : {} })
    buffer = []
  }
  for (const raw of text.split(/\r?\n/)) {
    if (markdown && /^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence
      continue
    }
    const match = markdown && !inFence ? raw.match(/^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/) : null
    if (match) {
      flush()
      heading = stripMarkdown(match[2] ?? '')
      if (!title && match[1] === '#') title = heading
      continue
    }
    if (!raw.trim()) {
      flush()
      continue
    }
    buffer.push(markdown && !inFence ? stripMarkdown(raw) : raw)
  }
  flush()
  return { passages: toPassages(blocks), pages: null, title }
}

const stripMarkdown = (line: string) =>
  line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/^\s*>\s?/, '')
    .replace(/^\s*[-*+]\s+/, '• ')
    .replace(/^\s*\|(.*)\|\s*$/, (_, inner: string) =>
      inner
        .split('|')
        .map((c) => c.trim())
        .join(' | '),
    )

/* ------------------------------------------------------------------ entry points */

export async function parseBuffer(
  buffer: Buffer,
  name: string,
  kind: FileKind,
  limits: ParseLimits,
  onProgress: Progress,
): Promise<ParseResult> {
  switch (kind) {
    case 'pdf':
      return parsePdf(buffer, onProgress)
    case 'docx':
      return parseDocx(buffer, limits, onProgress)
    case 'xlsx':
      return parseXlsx(buffer, limits, onProgress)
    case 'csv':
      return parseCsv(buffer, name)
    case 'txt':
      return parsePlain(decodeText(buffer), false)
    case 'md':
      return parsePlain(decodeText(buffer), true)
    case 'html': {
      const { blocks, title } = htmlToBlocks(decodeText(buffer))
      return { passages: toPassages(blocks), pages: null, title }
    }
  }
}

export async function parseFileDirect(
  filePath: string,
  name: string,
  kind: FileKind,
  limits: ParseLimits,
  onProgress: Progress,
) {
  return parseBuffer(await readFile(filePath), name, kind, limits, onProgress)
}

export async function readTableDirect(
  filePath: string,
  name: string,
  kind: 'csv' | 'xlsx',
  limits: ParseLimits,
) {
  const buffer = await readFile(filePath)
  if (kind === 'csv')
    return { sheets: [{ name: baseName(name), rows: csvRows(decodeText(buffer)) }] }
  return { sheets: workbookSheets(buffer, limits, true) }
}
