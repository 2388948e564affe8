import { Search } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { input } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { FILE_KIND_LABELS, type SearchResult } from '../../../contract/knowledge.ts'
import { type kbSearchMachine, kbSearchView } from '../../../machines/kb-search/index.ts'
import { useView } from '../../app/use-view.ts'
import { alert, card, metaLine } from '../../components/styles.ts'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Snippet } from './snippet.tsx'

const searchWrap = css({ position: 'relative', mb: '6' })
const searchIcon = css({
  position: 'absolute',
  left: '3',
  top: '50%',
  transform: 'translateY(-50%)',
  color: 'fg.muted',
  pointerEvents: 'none',
})
const searchInput = css({ pl: '10 !important', w: 'full' })
const results = stack({ gap: '2', mt: '3' })
// its highlights are the theme's <mark> (panda.config.ts globalCss)
const resultCard = card
const resultMeta = cx(metaLine, css({ mb: '1' }))
const linkButton = css({
  color: 'colorPalette.text',
  fontWeight: 'medium',
  cursor: 'pointer',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  textAlign: 'left',
})

function locationText(result: SearchResult) {
  const location = result.source.location
  if (!location) return null
  if (location.page) return `page ${location.page}`
  if (location.sheet && location.row) return `${location.sheet}, row ${location.row}`
  return location.heading ?? null
}

/** Ranked search over answers, data and documents; a passage opens its document. */
export function SearchPanel({
  actor,
  onOpenItem,
  onDownload,
}: {
  actor: ActorRefFrom<typeof kbSearchMachine>
  onOpenItem: (r: SearchResult) => void
  onDownload: (id: number, name: string) => void
}) {
  const view = useView(actor, kbSearchView)
  return (
    <section className={searchWrap} aria-label="Search the knowledge base">
      <div className={css({ position: 'relative' })}>
        <Search size={18} className={searchIcon} aria-hidden />
        <input
          type="search"
          className={cx(input({ size: 'lg' }), searchInput)}
          placeholder="Search answers, data and documents"
          aria-label="Search the knowledge base"
          value={view.q}
          onChange={(event) => actor.send({ type: 'query.change', q: event.target.value })}
        />
      </div>
      {view.searching && (
        <div className={css({ mt: '3' })}>
          <Spinner size="sm" />
        </div>
      )}
      {view.error && <p className={cx(alert, css({ mt: '3' }))}>{view.error}</p>}
      {view.shown && !view.error && view.found.length === 0 && (
        <p className={css({ mt: '3', textStyle: 'sm', color: 'fg.muted' })}>
          Nothing found for “{view.q}”.
        </p>
      )}
      {view.found.length > 0 && (
        <ol className={results} aria-label="Search results">
          {view.found.map((result) => (
            <li key={result.id} className={resultCard} data-testid="search-result">
              <div className={resultMeta}>
                {result.kind === 'passage' && result.file_id !== null ? (
                  <button
                    type="button"
                    className={linkButton}
                    onClick={() => onDownload(result.file_id as number, result.source.name)}
                  >
                    {result.source.name}
                  </button>
                ) : (
                  <button type="button" className={linkButton} onClick={() => onOpenItem(result)}>
                    {result.kind === 'qa' ? 'Q&A' : 'Data'}: {result.source.name}
                  </button>
                )}
                {result.source.kind && <span>{FILE_KIND_LABELS[result.source.kind]}</span>}
                {locationText(result) && <span>{locationText(result)}</span>}
                <span title="Relevance">{Math.round(result.score * 100)}%</span>
              </div>
              <div>
                <Snippet html={result.snippet} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
