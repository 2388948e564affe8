import { BookOpen, FileText } from 'lucide-react'
import { css } from 'styled-system/css'
import {
  type Citation,
  citationKindLabel,
  type QuestionRow,
} from '../../../contract/questionnaires.ts'
import { sourceLink } from '../../lib/citation-links.ts'
import { Button } from '../ui/button.tsx'
import {
  candidate,
  candidateList,
  choicePill,
  hint,
  sectionTitle,
  sourceItem,
  sourceTitle,
} from './answer-styles.ts'
import { ConfidenceBadge } from './badges.tsx'

const sourceLinkClass = css({
  color: 'inherit',
  textDecoration: 'underline',
  textDecorationColor: 'border.default',
  textUnderlineOffset: '2px',
  _hover: { textDecorationColor: 'currentColor' },
})

/** A source's name, with its page or sheet, opening where it is (issue 30). */
function SourceName(props: { citation: Citation }) {
  const { citation } = props
  const name = `${citation.title}${citation.location?.page ? ` · page ${citation.location.page}` : ''}${citation.location?.sheet ? ` · ${citation.location.sheet}` : ''}`
  const href = sourceLink(citation)
  if (!href) return <>{name}</>
  return (
    <a className={sourceLinkClass} href={href} target="_blank" rel="noopener">
      {name}
    </a>
  )
}

/** The other candidates of a question (one can be used instead) and the answer's sources. */
export function AnswerSources(props: {
  row: QuestionRow
  busy: boolean
  onSelectCandidate: (questionId: number, answerId: number) => void
}) {
  const { row } = props
  return (
    <>
      {row.candidates.length > 1 && (
        <div>
          <h3 className={sectionTitle}>Candidates</h3>
          <ul className={candidateList}>
            {row.candidates.map((item) => (
              <li
                key={item.id}
                className={candidate}
                data-selected={item.id === row.answer.id ? '' : undefined}
              >
                <div className={css({ minW: '0' })}>
                  <p className={css({ fontWeight: 'medium' })}>
                    {item.choice && <span className={choicePill}>{item.choice}</span>}{' '}
                    <ConfidenceBadge answer={item} />
                  </p>
                  <p className={css({ mt: '1', lineClamp: '3', color: 'fg.muted' })}>
                    {item.text || item.note || 'No text'}
                  </p>
                </div>
                {item.id === row.answer.id ? (
                  <span className={hint}>In use</span>
                ) : (
                  <Button
                    size="xs"
                    variant="outline"
                    disabled={props.busy}
                    onClick={() => props.onSelectCandidate(row.id, item.id)}
                  >
                    Use this
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div>
        <h3 className={sectionTitle}>Sources</h3>
        {row.answer.citations.length ? (
          <ul className={candidateList}>
            {row.answer.citations.map((citation, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two passages of one file share an id
              <li key={`${citation.source}-${citation.id}-${index}`} className={sourceItem}>
                <p className={sourceTitle}>
                  {citation.kind === 'library' ? <BookOpen size={14} /> : <FileText size={14} />}{' '}
                  <SourceName citation={citation} />
                </p>
                {citation.kind && (
                  <p className={hint} data-testid="source-kind">
                    {citationKindLabel(citation)}
                  </p>
                )}
                <p className={css({ color: 'fg.muted', lineClamp: '4' })}>{citation.snippet}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className={hint}>No sources: this answer was written by hand or not answered yet.</p>
        )}
      </div>
    </>
  )
}
