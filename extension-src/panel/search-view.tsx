import { useSelector } from '@xstate/react'
import { useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import { type kbSearchMachine, kbSearchView } from '../../machines/kb-search/index.ts'
import { citationText, type SearchHit } from '../quire.ts'

/**
 * Search Quire's knowledge base from the panel and copy an answer with its source. Results are
 * text only: nothing from the server is parsed as HTML.
 */
export function SearchView({ actor }: { actor: ActorRefFrom<typeof kbSearchMachine> }) {
  const found = useSelector(actor, kbSearchView.found) as unknown as SearchHit[]
  const error = useSelector(actor, kbSearchView.error)
  const busy = useSelector(actor, kbSearchView.searching)
  const shown = useSelector(actor, kbSearchView.shown)
  const q = useSelector(actor, kbSearchView.q)
  return (
    <section aria-labelledby="search-title" className="section">
      <h2 id="search-title">Search answers</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          const words = new FormData(event.currentTarget).get('q')
          actor.send({ type: 'query.change', q: String(words ?? '') })
        }}
      >
        <label htmlFor="q">Question</label>
        <input
          id="q"
          name="q"
          type="search"
          placeholder="Do you encrypt backups?"
          defaultValue={q}
          onChange={(event) => actor.send({ type: 'query.change', q: event.target.value })}
        />
        <button type="submit">Search</button>
      </form>
      <p className={error ? 'error' : 'muted'} role="status">
        {error ??
          (busy
            ? 'Searching...'
            : shown
              ? found.length
                ? `${found.length} found`
                : 'Nothing found for that question.'
              : '')}
      </p>
      {found.map((result) => (
        <SearchResultCard key={result.id} result={result} />
      ))}
    </section>
  )
}

function SearchResultCard({ result }: { result: SearchHit }) {
  const [copied, setCopied] = useState(false)
  return (
    <article className="result">
      <p>{result.text}</p>
      <div className="source">Source: {result.source.name}</div>
      <button
        type="button"
        className="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(citationText(result))
          setCopied(true)
        }}
      >
        {copied ? 'Copied' : 'Copy with source'}
      </button>
    </article>
  )
}
