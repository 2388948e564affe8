import { BookOpen, Check, CircleAlert, FileDiff, Sparkles } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { stack, wrap } from 'styled-system/patterns'
import {
  ANSWER_FLAG_LABELS,
  type Answer,
  type AnswerFlag,
  type CarriedFrom,
  type SourceChange,
} from '../../../contract/questionnaires.ts'
import { pill } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { actions, hint, sectionTitle } from './answer-styles.ts'
import { FreshnessBadge } from './badges.tsx'
import { wordDiff } from './word-diff.ts'

/**
 * What has changed around an answer (issue 28): its flags, the age and owner of the library entry
 * it was drawn from, the passage a changed document no longer says (with the new one beside it),
 * and the words of a question reworded since it was answered.
 */

const flagBadge = cx(
  pill,
  css({ gap: '1', bg: 'colorPalette.a3', color: 'colorPalette.text', borderWidth: '1px' }),
)
// palettes as whole class names: Panda extracts only literal styles
const FLAG_PALETTE: Record<AnswerFlag, string> = {
  source_changed: css({ colorPalette: 'red', borderColor: 'red.a6' }),
  conflict: css({ colorPalette: 'amber', borderColor: 'amber.a6' }),
  carried_forward: css({ colorPalette: 'blue', borderColor: 'blue.a6' }),
  question_changed: css({ colorPalette: 'amber', borderColor: 'amber.a6' }),
  other_product: css({ colorPalette: 'amber', borderColor: 'amber.a6' }),
  third_party: css({ colorPalette: 'amber', borderColor: 'amber.a6' }),
}

export function FlagBadge(props: { flag: AnswerFlag }) {
  return (
    <span className={cx(flagBadge, FLAG_PALETTE[props.flag])} data-flag={props.flag}>
      {props.flag !== 'carried_forward' && <CircleAlert size={12} aria-hidden />}
      {ANSWER_FLAG_LABELS[props.flag]}
    </span>
  )
}

const line = wrap({ gap: '2', align: 'center', textStyle: 'xs', color: 'fg.muted' })

const ageOf = (days: number) =>
  days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days.toLocaleString()} days ago`

/** The flags as badges and, for a library answer, its age, owner and freshness. */
export function AnswerFlags(props: { answer: Answer }) {
  const { answer } = props
  const entry = answer.library_entry
  if (!answer.flags.length && !entry) return null
  return (
    <div className={stack({ gap: '1.5' })} data-testid="answer-changes">
      {answer.flags.length > 0 && (
        <ul className={wrap({ gap: '1.5' })} aria-label="What changed">
          {answer.flags.map((flag) => (
            <li key={flag}>
              <FlagBadge flag={flag} />
            </li>
          ))}
        </ul>
      )}
      {entry && (
        <p className={line} data-testid="library-entry">
          <BookOpen size={12} aria-hidden />
          <span>From your library</span>
          <span>· reviewed {ageOf(entry.age_days)}</span>
          <span>
            · {entry.owner ? `owner ${entry.owner.name || entry.owner.email}` : 'no owner'}
          </span>
          {answer.freshness && <FreshnessBadge freshness={answer.freshness} />}
        </p>
      )}
    </div>
  )
}

const passages = css({
  display: 'grid',
  // side by side where two readable columns fit, one above the other on a phone
  gridTemplateColumns: 'repeat(auto-fit, minmax(11rem, 1fr))',
  gap: '2',
})
const passage = css({
  p: '2.5',
  borderRadius: 'l2',
  borderLeftWidth: '3px',
  textStyle: 'sm',
  lineHeight: '1.55',
  overflowWrap: 'anywhere',
  minW: '0',
})
const before = cx(passage, css({ bg: 'red.a2', borderColor: 'red.a7' }))
const after = cx(passage, css({ bg: 'green.a2', borderColor: 'green.a7' }))
const passageLabel = css({
  display: 'block',
  textStyle: 'xs',
  fontWeight: 'semibold',
  color: 'fg.muted',
  mb: '1',
})
const box = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'red.a6',
  borderRadius: 'l2',
  bg: 'bg.default',
})

/** The passage the answer quoted and the closest one now, with what the reviewer can do. */
export function SourceChangeView(props: {
  change: SourceChange
  /** Whether the signed-in role may change the answer. */
  mayChange: boolean
  confirming: boolean
  regenerating: boolean
  busy: boolean
  onConfirm: () => void
  onRegenerate: () => void
}) {
  const { change } = props
  return (
    <section className={cx(box, stack({ gap: '2.5' }))} aria-label="Source changed">
      <div>
        <h3 className={sectionTitle}>Source changed</h3>
        <p className={hint}>
          {change.version === null
            ? `${change.title} was deleted: the answer quotes a passage no document holds now.`
            : `${change.title}, version ${change.version}, no longer says what the answer quotes.`}
        </p>
      </div>
      <div className={passages}>
        <blockquote className={before} data-testid="passage-before">
          <span className={passageLabel}>Quoted then</span>
          {change.before}
        </blockquote>
        <blockquote className={after} data-testid="passage-after">
          <span className={passageLabel}>
            {change.version === null ? 'Now' : `Now (version ${change.version})`}
          </span>
          {change.after ?? (
            <span className={css({ fontStyle: 'italic', color: 'fg.muted' })}>
              Nothing like it is left.
            </span>
          )}
        </blockquote>
      </div>
      {props.mayChange && (
        <div className={actions}>
          <Button
            size="sm"
            loading={props.confirming}
            disabled={props.busy && !props.confirming}
            onClick={props.onConfirm}
          >
            <Check /> Confirm it still holds
          </Button>
          <Button
            size="sm"
            variant="outline"
            loading={props.regenerating}
            disabled={props.busy && !props.regenerating}
            onClick={props.onRegenerate}
          >
            <Sparkles /> Regenerate
          </Button>
        </div>
      )}
    </section>
  )
}

const diffText = css({
  textStyle: 'sm',
  lineHeight: '1.7',
  '& del': {
    bg: 'red.a3',
    color: 'red.text',
    textDecoration: 'line-through',
    borderRadius: 'l1',
    px: '0.5',
  },
  '& ins': {
    bg: 'green.a3',
    color: 'green.text',
    textDecoration: 'none',
    borderRadius: 'l1',
    px: '0.5',
  },
})

const DIFF_TAG = { added: 'ins', removed: 'del', same: 'span' } as const

/** The question as asked before against the question now, word by word. */
export function QuestionChange(props: { carried: CarriedFrom; text: string }) {
  const parts = wordDiff(props.carried.previous_text, props.text)
  return (
    <section
      className={cx(css({ p: '3', borderRadius: 'l2', bg: 'amber.a2' }), stack({ gap: '1.5' }))}
      aria-label="Question changed"
    >
      <p className={line}>
        <FileDiff size={12} aria-hidden />
        <span>Reworded since {props.carried.questionnaire_name}</span>
      </p>
      <p className={diffText} data-testid="question-diff">
        {parts.map((part, index) => {
          const Tag = DIFF_TAG[part.kind]
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
            <span key={index}>
              {index > 0 && ' '}
              <Tag>{part.text}</Tag>
            </span>
          )
        })}
      </p>
    </section>
  )
}
