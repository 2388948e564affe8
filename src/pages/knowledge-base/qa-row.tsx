import { Boxes, CheckCheck, Pencil, Trash2, UserRound } from 'lucide-react'
import { css } from 'styled-system/css'
import { grid, wrap } from 'styled-system/patterns'
import type { QaItem } from '../../../contract/knowledge.ts'
import type { QaRowView } from '../../../machines/library-review/index.ts'
import { FreshnessBadge } from '../../components/questionnaire/badges.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RowActions } from '../../components/row-actions.tsx'
import { chip } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { formatDay, formatExact } from '../../lib/format.ts'

export const itemRow = grid({
  gridTemplateColumns: '1fr auto',
  rowGap: '1',
  columnGap: '3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
})
export const rowTitle = css({ fontWeight: 'semibold', textStyle: 'sm' })
export const rowText = css({
  textStyle: 'sm',
  color: 'fg.muted',
  lineClamp: '3',
  whiteSpace: 'pre-line',
})
export const rowMeta = wrap({
  gap: '1.5',
  align: 'center',
  mt: '1.5',
  textStyle: 'xs',
  color: 'fg.muted',
})
const valueBadge = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  textStyle: 'xs',
  fontWeight: 'semibold',
})
const freshnessLine = wrap({
  rowGap: '1',
  columnGap: '3',
  align: 'center',
  mt: '2',
  textStyle: 'xs',
  color: 'fg.muted',
})
const owner = css({ display: 'inline-flex', alignItems: 'center', gap: '1' })
const noOwner = css({ fontStyle: 'italic' })
const queueActions = wrap({ gap: '2', gridColumn: '1 / -1', mt: '2' })
const danger = css({ colorPalette: 'red' })
const rowError = css({ gridColumn: '1 / -1', textStyle: 'sm', color: 'fg.error' })

/** When an answer falls or fell stale, in words. */
const dueText = (item: QaItem, row: QaRowView) => `${row.dueLead} ${formatDay(item.review_due_at)}`

/**
 * One Q&A item: its question and answer, what it carries, and how fresh it is (a badge, its owner
 * or "No owner", when it was last reviewed). In the list its actions sit in the row's menu ("Mark
 * reviewed" for those who may); in the review queue they are buttons: Confirm, Edit, Retire.
 */
export function QaRow(props: {
  item: QaItem
  /** What the row offers, from the library-review view (`qaRow`). */
  row: QaRowView
  queue: boolean
  onReview: () => void
  onEdit: () => void
  onDelete: () => void
  /** The product it speaks for (issue 38); absent: all products. */
  product?: string
}) {
  const { item, row } = props
  return (
    <li className={itemRow} data-testid="kb-item" data-freshness={item.freshness}>
      <div className={css({ minW: '0', gridColumn: props.queue ? '1 / -1' : undefined })}>
        <div className={rowTitle}>{item.question}</div>
        <div className={rowText}>{item.answer}</div>
        <div className={rowMeta}>
          {item.dropdown_value && <span className={valueBadge}>{item.dropdown_value}</span>}
          {props.product && (
            <span className={owner} title="Speaks for">
              <Boxes size={12} aria-hidden />
              <span className={css({ srOnly: true })}>Speaks for: </span>
              {props.product}
            </span>
          )}
          <ItemFacts item={item} />
        </div>
        <div className={freshnessLine}>
          <FreshnessBadge
            freshness={item.freshness}
            title={`${dueText(item, row)} (every ${item.review_cycle_days} days)`}
          />
          <span className={owner}>
            <UserRound size={12} aria-hidden />
            {row.ownerName ?? <span className={noOwner}>No owner</span>}
          </span>
          <span title={formatExact(item.last_reviewed_at)}>
            Reviewed {formatDay(item.last_reviewed_at)}
            {row.reviewedBy}
          </span>
          {props.queue && <span>{dueText(item, row)}</span>}
        </div>
      </div>
      {props.queue ? (
        <div className={queueActions}>
          <Button
            size="sm"
            onClick={props.onReview}
            loading={row.reviewing}
            disabled={!row.canReview}
            aria-label={`Confirm ${item.question}`}
          >
            <CheckCheck /> Confirm
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={props.onEdit}
            aria-label={`Edit ${item.question}`}
          >
            <Pencil /> Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className={danger}
            onClick={props.onDelete}
            aria-label={`Retire ${item.question}`}
          >
            <Trash2 /> Retire
          </Button>
        </div>
      ) : (
        <RowActions name={item.question}>
          {row.canReview && (
            <Menu.Item value="reviewed" onClick={props.onReview} disabled={row.reviewing}>
              <CheckCheck /> Mark reviewed
            </Menu.Item>
          )}
          <Menu.Item value="edit" onClick={props.onEdit}>
            <Pencil /> Edit
          </Menu.Item>
          <Menu.Item value="delete" onClick={props.onDelete}>
            <Trash2 /> Delete
          </Menu.Item>
        </RowActions>
      )}
      {row.error && (
        <p className={rowError} role="alert">
          {row.error}
        </p>
      )}
    </li>
  )
}

/** The end of a knowledge-base row's facts: its tags, its source and when it was updated. */
export function ItemFacts({ item }: { item: Pick<QaItem, 'tags' | 'source' | 'updated_at'> }) {
  return (
    <>
      {item.tags.map((tag) => (
        <span key={tag} className={chip}>
          {tag}
        </span>
      ))}
      {item.source && <span>{item.source}</span>}
      <RelativeTime iso={item.updated_at} prefix="updated " />
    </>
  )
}
