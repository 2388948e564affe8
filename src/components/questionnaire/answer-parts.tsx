import { useId } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { AnswerPart } from '../../../contract/questionnaires.ts'
import { sectionTitle } from './answer-styles.ts'
import { StatedBadge } from './badges.tsx'

const list = stack({ gap: '2' })
const item = css({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  alignItems: 'center',
  columnGap: '3',
  rowGap: '1.5',
  px: '3',
  py: '2',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
})
const label = css({
  fontWeight: 'medium',
  overflowWrap: 'anywhere',
  _firstLetter: { textTransform: 'uppercase' },
})
const quote = css({
  gridColumn: '1 / -1',
  pl: '2.5',
  borderLeftWidth: '2px',
  borderColor: 'border.default',
  color: 'fg.muted',
  lineHeight: '1.5',
  lineClamp: '3',
  overflowWrap: 'anywhere',
})
const again = css({ gridColumn: '1 / -1', textStyle: 'xs', color: 'fg.muted' })

/**
 * What the question asks, part by part (the practice, then how often, automated, tested, ...),
 * each with the cited sentence that states it or a 'Not stated' badge: what the reviewer checks
 * before approving. Nothing for answers that carry no parts.
 */
export function AnswerParts({ parts }: { parts: AnswerPart[] | undefined }) {
  const titleId = useId()
  if (!parts?.length) return null
  return (
    <div>
      <h3 className={sectionTitle} id={titleId}>
        What the question asks
      </h3>
      <ul className={list} aria-labelledby={titleId}>
        {parts.map((part, index) => (
          <li
            key={`${part.kind}-${part.label}`}
            className={item}
            data-testid="answer-part"
            data-kind={part.kind}
          >
            <span className={label}>{part.label}</span>
            <StatedBadge stated={part.sentence !== null} />
            {part.sentence !== null &&
              // one sentence often states several parts: quoted once, then pointed at
              (part.sentence === parts[index - 1]?.sentence ? (
                <span className={again} title={part.sentence}>
                  By the sentence above
                </span>
              ) : (
                <q className={quote} title={part.sentence}>
                  {part.sentence}
                </q>
              ))}
          </li>
        ))}
      </ul>
    </div>
  )
}
