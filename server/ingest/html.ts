import { parseDocument } from 'htmlparser2'
import type { Block } from './chunk.ts'
import { toPassages } from './chunk.ts'
import { qaFromCells } from './qa.ts'
import type { ParseResult } from './types.ts'

/**
 * HTML to blocks: the main content only (scripts, styles, navigation, headers, footers, asides and
 * forms dropped; <main> or <article> preferred), headings kept on the blocks under them, table rows
 * as `Header: value` lines, rows that pair a question with its answer marked as Q/A.
 */

interface DomNode {
  type: string
  name?: string
  data?: string
  attribs?: Record<string, string>
  children?: DomNode[]
}

const DROP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'svg',
  'iframe',
  'object',
  'embed',
  'button',
  'select',
  'head',
  'canvas',
  'dialog',
])
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'li',
  'dd',
  'dt',
  'blockquote',
  'pre',
  'figcaption',
  'address',
  'ul',
  'ol',
  'dl',
  'body',
  'br',
  'hr',
])
const HEADING = /^h[1-6]$/

function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data ?? ''
  if (node.type !== 'tag' || DROP.has(node.name ?? '')) return ''
  const inner = (node.children ?? []).map(textOf).join('')
  return BLOCK.has(node.name ?? '') || node.name === 'tr'
    ? `${inner}\n`
    : node.name === 'td' || node.name === 'th'
      ? `${inner} `
      : inner
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim()

function find(node: DomNode, name: string): DomNode | null {
  if (node.type === 'tag' && node.name === name) return node
  for (const child of node.children ?? []) {
    const found = find(child, name)
    if (found) return found
  }
  return null
}

function hidden(node: DomNode) {
  const attribs = node.attribs ?? {}
  return (
    'hidden' in attribs ||
    attribs['aria-hidden'] === 'true' ||
    /display\s*:\s*none/i.test(attribs.style ?? '')
  )
}

/** Walks the content and appends blocks; `state.heading` follows the latest heading. */
function walk(node: DomNode, blocks: Block[], state: { heading?: string; buffer: string }) {
  const flush = () => {
    const text = state.buffer.trim()
    if (text) blocks.push({ text, location: state.heading ? { heading: state.heading } : {} })
    state.buffer = ''
  }
  if (node.type === 'text') {
    state.buffer += node.data ?? ''
    return
  }
  if (node.type !== 'tag' && node.type !== 'root') return
  const name = node.name ?? ''
  if (DROP.has(name) || hidden(node)) return
  if (HEADING.test(name)) {
    flush()
    const heading = clean(textOf(node))
    if (heading) state.heading = heading
    return
  }
  if (name === 'table') {
    flush()
    tableBlocks(node, blocks, state.heading)
    return
  }
  const isBlock = BLOCK.has(name)
  if (isBlock) flush()
  for (const child of node.children ?? []) walk(child, blocks, state)
  if (isBlock) flush()
  else if (name === 'td' || name === 'th') state.buffer += ' '
}

function tableBlocks(table: DomNode, blocks: Block[], heading?: string) {
  const rows: string[][] = []
  const collect = (node: DomNode) => {
    if (node.type !== 'tag') return
    if (node.name === 'table' && node !== table) return // nested tables are read as their cells' text
    if (node.name === 'tr') {
      rows.push(
        (node.children ?? [])
          .filter((c) => c.type === 'tag' && (c.name === 'td' || c.name === 'th'))
          .map((c) => clean(textOf(c))),
      )
      return
    }
    for (const child of node.children ?? []) collect(child)
  }
  collect(table)
  if (!rows.length) return
  const header = rows[0] ?? []
  const headerLike = rows.length > 1 && header.every((cell) => cell.length <= 80)
  const qa = headerLike ? qaFromCells(header) : null
  for (let i = headerLike ? 1 : 0; i < rows.length; i++) {
    const cells = rows[i] ?? []
    if (!cells.some(Boolean)) continue
    const location = heading ? { heading } : {}
    const question = qa?.question !== undefined ? cells[qa.question] : undefined
    const answer = qa?.answer !== undefined ? cells[qa.answer] : undefined
    const lines = cells
      .map((cell, c) => (cell ? (headerLike && header[c] ? `${header[c]}: ${cell}` : cell) : ''))
      .filter(Boolean)
    if (question && answer) {
      blocks.push({
        text: [
          question,
          `Answer: ${answer}`,
          ...lines.filter((_, c) => c !== qa?.question && c !== qa?.answer),
        ].join('\n'),
        location,
        qa: { question, answer },
      })
    } else {
      blocks.push({ text: lines.join('\n'), location: { ...location, row: i + 1 } })
    }
  }
}

export function htmlToBlocks(html: string): { blocks: Block[]; title: string | null } {
  const document = parseDocument(html, { decodeEntities: true }) as unknown as DomNode
  const titleNode = find(document, 'title')
  const title = titleNode ? clean(textOf({ ...titleNode, name: 'span' })) || null : null
  const root =
    find(document, 'main') ?? find(document, 'article') ?? find(document, 'body') ?? document
  const blocks: Block[] = []
  walk(root, blocks, { buffer: '' })
  return { blocks, title }
}

export function parseHtmlString(html: string, _baseUrl?: string): ParseResult {
  const { blocks, title } = htmlToBlocks(html)
  const h1 = blocks.find((block) => block.location.heading)?.location.heading ?? null
  return { passages: toPassages(blocks), pages: null, title: title ?? h1 }
}
