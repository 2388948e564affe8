import { Link } from '@tanstack/react-router'
import { Columns3, Trash2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import type { Questionnaire, QuestionnaireStatus } from '../../../contract/questionnaires.ts'
import { RowActions } from '../../components/row-actions.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { formatExact, formatRelative } from '../../lib/format.ts'

const STATUS: Record<QuestionnaireStatus, { label: string; className: string }> = {
  queued: { label: 'Queued', className: css({ colorPalette: 'gray' }) },
  analyzing: { label: 'Analysing', className: css({ colorPalette: 'blue' }) },
  ready: { label: 'Ready', className: css({ colorPalette: 'green' }) },
  generating: { label: 'Generating', className: css({ colorPalette: 'blue' }) },
  failed: { label: 'Failed', className: css({ colorPalette: 'red' }) },
}

const badge = css({
  display: 'inline-flex',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  textStyle: 'xs',
  fontWeight: 'medium',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  whiteSpace: 'nowrap',
})
export const hideSmall = css({ display: { base: 'none', md: 'table-cell' } })
const nameLink = css({
  fontWeight: 'medium',
  color: 'fg.default',
  _hover: { textDecoration: 'underline' },
  overflowWrap: 'anywhere',
})
const muted = css({ color: 'fg.muted', textStyle: 'xs' })
export const numeric = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })

/** One questionnaire in the list: name, status, progress, counts and its actions. */
export function QuestionnaireRow(props: {
  item: Questionnaire
  checked: boolean
  onToggle: () => void
  onDelete: () => void
}) {
  const { item } = props
  const status = STATUS[item.status]
  const running =
    item.status === 'queued' || item.status === 'analyzing' || item.status === 'generating'
  const percent = item.questions ? Math.round((item.answered / item.questions) * 100) : 0
  return (
    <tr data-testid="questionnaire-row">
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${item.name}`}
          checked={props.checked}
          onChange={props.onToggle}
        />
      </td>
      <td>
        <Link to="/questionnaire/$id" params={{ id: item.id }} className={nameLink}>
          {item.name}
        </Link>
        <p className={cx(muted, css({ display: { base: 'block', md: 'none' } }))}>
          {item.questions.toLocaleString()} questions · {item.answered.toLocaleString()} answered
        </p>
        {item.unsure_tabs > 0 && item.status === 'ready' && (
          <p className={cx(muted, css({ display: 'flex', gap: '1', alignItems: 'center' }))}>
            <Columns3 size={12} /> Check mapping
          </p>
        )}
      </td>
      <td>
        <span className={cx(badge, status.className)}>{status.label}</span>
        {item.status === 'failed' && item.error && (
          <p className={css({ color: 'fg.error', textStyle: 'xs', mt: '1', maxW: '20rem' })}>
            {item.error}
          </p>
        )}
      </td>
      <td className={hideSmall}>
        {running ? (
          <LinearProgress
            value={item.progress}
            size="sm"
            label={item.progress_label ?? status.label}
            className={css({ minW: '10rem' })}
          />
        ) : (
          <span className={muted}>{item.status === 'ready' ? `${percent}% answered` : '—'}</span>
        )}
      </td>
      <td className={cx(numeric, hideSmall)}>{item.questions.toLocaleString()}</td>
      <td className={cx(numeric, hideSmall)}>{item.answered.toLocaleString()}</td>
      <td className={cx(numeric, hideSmall)}>{item.approved.toLocaleString()}</td>
      <td className={cx(hideSmall, muted)} title={formatExact(item.created_at)}>
        {formatRelative(item.created_at)}
      </td>
      <td>
        <RowActions name={item.name}>
          <Menu.Item value="delete" onClick={props.onDelete}>
            <Trash2 /> Delete
          </Menu.Item>
        </RowActions>
      </td>
    </tr>
  )
}
