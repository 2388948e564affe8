import { useCallback } from 'react'
import { css } from 'styled-system/css'

const mark = css({ bg: 'amber.a5', color: 'fg.default', borderRadius: 'l1', px: '0.5' })

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Where a quote is in a text, whatever its spacing or case; its first words will do. */
export function quoteRange(text: string, quote: string | null): [number, number] | null {
  const words = (quote ?? '')
    .replace(/[…]+$|\.\.\.$/, '')
    .split(/\s+/)
    .filter(Boolean)
  if (!words.length) return null
  // the whole quote, else its first words, fewer each time (a snippet may run past the passage)
  for (const take of [words.length, 10, 8, 6, 4].filter((n) => n <= words.length)) {
    const found = new RegExp(words.slice(0, take).map(escapeRegExp).join('\\s+'), 'i').exec(text)
    if (found) return [found.index, found.index + found[0].length]
  }
  return null
}

/**
 * A passage's text with the cited words marked (issue 39), brought into view once shown: a
 * source opened from an answer lands on what it says.
 */
export function Marked(props: { text: string; quote: string | null }) {
  const range = quoteRange(props.text, props.quote)
  const into = useCallback((node: HTMLElement | null) => {
    node?.scrollIntoView?.({ block: 'center' })
  }, [])
  if (!range) return <>{props.text}</>
  return (
    <>
      {props.text.slice(0, range[0])}
      <mark className={mark} ref={into} data-testid="cited-quote">
        {props.text.slice(range[0], range[1])}
      </mark>
      {props.text.slice(range[1])}
    </>
  )
}
