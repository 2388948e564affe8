import { Fragment } from 'react'
import { SNIPPET_MARK_CLOSE, SNIPPET_MARK_OPEN } from '../../../contract/knowledge.ts'

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
}
const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)

/**
 * A search snippet: the server escapes the text and wraps matches in <mark>; only those marks
 * become elements, everything else is rendered as text (never as HTML).
 */
export function Snippet({ html }: { html: string }) {
  const parts = html.split(SNIPPET_MARK_OPEN)
  return (
    <>
      {parts.map((part, index) => {
        // the parts never move: their position is their identity
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed order
        if (index === 0) return <Fragment key={index}>{decodeEntities(part)}</Fragment>
        const end = part.indexOf(SNIPPET_MARK_CLOSE)
        const marked = end >= 0 ? part.slice(0, end) : part
        const rest = end >= 0 ? part.slice(end + SNIPPET_MARK_CLOSE.length) : ''
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed order
          <Fragment key={index}>
            <mark>{decodeEntities(marked)}</mark>
            {decodeEntities(rest)}
          </Fragment>
        )
      })}
    </>
  )
}
