import { Fragment, type ReactNode } from 'react'
import { css } from 'styled-system/css'

/**
 * A small Markdown reader for texts an operator writes (the legal pages): headings, paragraphs,
 * lists, links, bold and italics. It builds React elements, never HTML, so nothing in the text
 * can run; links are kept only when they are http(s) or mailto.
 */

const prose = css({
  textStyle: 'sm',
  color: 'fg.default',
  lineHeight: '1.7',
  '& h2': { textStyle: 'lg', fontWeight: 'semibold', mt: '7', mb: '2' },
  '& h3': { textStyle: 'md', fontWeight: 'semibold', mt: '5', mb: '1.5' },
  '& p': { my: '3' },
  '& ul, & ol': { my: '3', pl: '5' },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& li': { my: '1' },
  '& a': { color: 'colorPalette.text', textDecoration: 'underline', textUnderlineOffset: '2px' },
  '& > :first-child': { mt: '0' },
})

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }

const HEADING = /^(#{1,6})\s+(.*)$/
const BULLET = /^\s*[-*+]\s+(.*)$/
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/

/** The text's blocks: a blank line ends a paragraph or a list. */
export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = []
  let paragraph: string[] = []
  let list: { ordered: boolean; items: string[] } | null = null
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') })
    if (list) blocks.push({ kind: 'list', ...list })
    paragraph = []
    list = null
  }
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd()
    const heading = HEADING.exec(line)
    const bullet = BULLET.exec(line)
    const numbered = NUMBERED.exec(line)
    if (!line.trim()) flush()
    else if (heading) {
      flush()
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' })
    } else if (bullet || numbered) {
      const ordered = Boolean(numbered && !bullet)
      if (paragraph.length || (list && list.ordered !== ordered)) flush()
      list ??= { ordered, items: [] }
      list.items.push(((bullet ?? numbered) as RegExpExecArray)[1] ?? '')
    } else if (list && /^\s+/.test(raw)) {
      list.items.push(`${list.items.pop() ?? ''} ${line.trim()}`)
    } else {
      if (list) flush()
      paragraph.push(line.trim())
    }
  }
  flush()
  return blocks
}

const INLINE = /\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_/g
const SAFE_LINK = /^(https?:|mailto:)/i

/** Links, bold and italics of one line of text. */
export function inline(text: string): ReactNode[] {
  const nodes: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0
    if (at > last) nodes.push(text.slice(last, at))
    const [whole, label, href, bold, em1, em2] = match
    const key = `${at}`
    if (label !== undefined)
      nodes.push(
        href && SAFE_LINK.test(href) ? (
          <a key={key} href={href} rel="noreferrer noopener">
            {label}
          </a>
        ) : (
          <Fragment key={key}>{label}</Fragment>
        ),
      )
    else if (bold !== undefined) nodes.push(<strong key={key}>{bold}</strong>)
    else nodes.push(<em key={key}>{em1 ?? em2}</em>)
    last = at + whole.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

export function Markdown(props: { text: string; className?: string }) {
  return (
    <div className={props.className ? `${prose} ${props.className}` : prose}>
      {blocksOf(props.text).map((block, index) => {
        const key = `${block.kind}-${index}`
        if (block.kind === 'heading')
          // the page's own title is its h1: the text's headings start at h2
          return block.level <= 2 ? (
            <h2 key={key}>{inline(block.text)}</h2>
          ) : (
            <h3 key={key}>{inline(block.text)}</h3>
          )
        if (block.kind === 'list') {
          const items = block.items.map((item) => <li key={`${key}:${item}`}>{inline(item)}</li>)
          return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>
        }
        return <p key={key}>{inline(block.text)}</p>
      })}
    </div>
  )
}
