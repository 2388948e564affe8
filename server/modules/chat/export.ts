import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib'
import type { ChatMessage, ChatSession } from '../../../contract/chat.ts'

/** A conversation as Markdown or PDF, each answer with its numbered sources. */

const sourceLine = (citation: ChatMessage['citations'][number], index: number) => {
  const page = citation.location?.page ? `, page ${citation.location.page}` : ''
  return `${index + 1}. ${citation.title}${page}: “${citation.snippet.replace(/\s+/g, ' ').slice(0, 240)}”`
}

export function conversationMarkdown(session: ChatSession, messages: ChatMessage[]): string {
  const parts = [
    `# ${session.title}`,
    '',
    `Exported from Quire on ${new Date().toISOString().slice(0, 10)}.`,
    '',
  ]
  for (const message of messages) {
    parts.push(
      `## ${message.role === 'user' ? 'You' : 'Quire'} · ${message.created_at.slice(0, 16).replace('T', ' ')} UTC`,
      '',
    )
    parts.push(message.content, '')
    if (message.status === 'stopped') parts.push('_(stopped before the end)_', '')
    if (message.citations.length) {
      parts.push('Sources:', '', ...message.citations.map(sourceLine), '')
    }
  }
  return `${parts.join('\n').trim()}\n`
}

/** The standard PDF fonts encode WinAnsi only: other characters become their nearest or '?'. */
const winAnsi = (text: string) =>
  text
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/[–—]/g, '-')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e\xa0-\xff\n]/g, '?')

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word
      if (font.widthOfTextAtSize(next, size) <= width) line = next
      else {
        if (line) lines.push(line)
        line = word
      }
    }
    lines.push(line)
  }
  return lines
}

export async function conversationPdf(session: ChatSession, messages: ChatMessage[]) {
  const doc = await PDFDocument.create()
  doc.setTitle(winAnsi(session.title))
  doc.setProducer('Quire')
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const [width, height, margin] = [595, 842, 56]
  let page = doc.addPage([width, height])
  let y = height - margin
  const write = (text: string, font: PDFFont, size: number, gap = 4) => {
    for (const line of wrap(winAnsi(text), font, size, width - margin * 2)) {
      if (y < margin + size) {
        page = doc.addPage([width, height])
        y = height - margin
      }
      page.drawText(line, { x: margin, y, size, font })
      y -= size + gap
    }
  }
  write(session.title, bold, 18, 8)
  y -= 8
  for (const message of messages) {
    write(
      `${message.role === 'user' ? 'You' : 'Quire'} - ${message.created_at.slice(0, 16).replace('T', ' ')} UTC`,
      bold,
      11,
    )
    write(message.content, regular, 11)
    if (message.citations.length) {
      write('Sources:', bold, 10)
      for (const [index, citation] of message.citations.entries())
        write(sourceLine(citation, index), regular, 9, 3)
    }
    y -= 10
  }
  return Buffer.from(await doc.save())
}
