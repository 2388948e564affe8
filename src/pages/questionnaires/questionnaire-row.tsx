import { Link } from '@tanstack/react-router'
import { Boxes, Building2, Columns3, Globe, ListTodo, Trash2, UserRound } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import type { QuestionnaireRowView } from '../../../machines/questionnaire-list/index.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RowActions } from '../../components/row-actions.tsx'
import { metaLine, nameLink } from '../../components/styles.ts'
import * as Menu from '../../components/ui/menu.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { DueDate, WorkStatusBadge } from '../../components/work-status.tsx'
import { formatExact } from '../../lib/format.ts'

const TONES = {
  gray: css({ colorPalette: 'gray' }),
  blue: css({ colorPalette: 'blue' }),
  green: css({ colorPalette: 'green' }),
  red: css({ colorPalette: 'red' }),
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
const muted = css({ color: 'fg.muted', textStyle: 'xs' })
export const numeric = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })
const smallOnly = css({ display: { base: 'flex', md: 'none' } })
const meta = cx(metaLine, css({ mt: '1', columnGap: '3', rowGap: '1' }))
const metaItem = css({ display: 'inline-flex', alignItems: 'center', gap: '1', minW: '0' })
const customerLink = css({
  color: 'fg.default',
  textDecoration: 'underline',
  textDecorationColor: 'border.default',
  textUnderlineOffset: '2px',
  _hover: { textDecorationColor: 'fg.default' },
  overflowWrap: 'anywhere',
})

/**
 * One questionnaire in the list: name with its customer and owner, status, work status and due
 * date (under the name on a phone), progress, counts and its actions.
 */
export function QuestionnaireRow(props: {
  row: QuestionnaireRowView
  onToggle: () => void
  onDelete: () => void
  onWork: () => void
  /** The product it is answered for (issue 38); absent: all products. */
  product?: string
}) {
  const { row } = props
  const { item, status } = row
  return (
    <tr data-testid="questionnaire-row">
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${item.name}`}
          checked={row.checked}
          onChange={props.onToggle}
        />
      </td>
      <td>
        <Link to="/questionnaire/$id" params={{ id: item.id }} className={nameLink}>
          {item.name}
        </Link>
        <p className={cx(muted, css({ display: { base: 'block', md: 'none' } }))}>{row.counts}</p>
        {(item.customer || item.owner || props.product || row.portal) && (
          <p className={meta}>
            {item.portal_url && (
              <span className={metaItem} title="Read from a web portal">
                <Globe size={12} aria-hidden />
                <a
                  href={item.portal_url}
                  target="_blank"
                  rel="noreferrer"
                  className={customerLink}
                  aria-label={`Portal: ${item.portal_url}`}
                >
                  {row.portal}
                </a>
              </span>
            )}
            {item.customer && (
              <span className={metaItem}>
                <Building2 size={12} aria-hidden />
                <Link
                  to="/customers/$id"
                  params={{ id: item.customer.id }}
                  className={customerLink}
                  aria-label={`Customer: ${item.customer.name}`}
                >
                  {item.customer.name}
                </Link>
              </span>
            )}
            {item.owner && (
              <span className={metaItem} title="Owner">
                <UserRound size={12} aria-hidden />
                <span className={css({ srOnly: true })}>Owner: </span>
                {item.owner.name}
              </span>
            )}
            {props.product && (
              <span className={metaItem} title="Answered for">
                <Boxes size={12} aria-hidden />
                <span className={css({ srOnly: true })}>Answered for: </span>
                {props.product}
              </span>
            )}
          </p>
        )}
        <p className={cx(meta, smallOnly)}>
          <WorkStatusBadge status={item.work_status} />
          {item.due_date && <DueDate date={item.due_date} overdue={item.overdue} prefix="Due " />}
        </p>
        {row.checkMapping && (
          <p className={cx(muted, css({ display: 'flex', gap: '1', alignItems: 'center' }))}>
            <Columns3 size={12} /> Check mapping
          </p>
        )}
      </td>
      <td>
        <span className={cx(badge, TONES[status.tone])}>{status.label}</span>
        {row.error && (
          <p className={css({ color: 'fg.error', textStyle: 'xs', mt: '1', maxW: '20rem' })}>
            {row.error}
          </p>
        )}
      </td>
      <td className={hideSmall}>
        <WorkStatusBadge status={item.work_status} />
      </td>
      <td className={hideSmall}>
        <DueDate date={item.due_date} overdue={item.overdue} />
      </td>
      <td className={hideSmall}>
        {row.progress ? (
          <LinearProgress
            value={row.progress.value}
            size="sm"
            label={row.progress.label}
            className={css({ minW: '10rem' })}
          />
        ) : (
          <span className={muted}>{row.answered}</span>
        )}
      </td>
      <td className={cx(numeric, hideSmall)}>{item.questions.toLocaleString()}</td>
      <td className={cx(numeric, hideSmall)}>{item.answered.toLocaleString()}</td>
      <td className={cx(numeric, hideSmall)}>{item.approved.toLocaleString()}</td>
      <td className={cx(hideSmall, muted)} title={formatExact(item.created_at)}>
        <RelativeTime iso={item.created_at} />
      </td>
      <td>
        <RowActions name={item.name}>
          <Menu.Item value="work" onClick={props.onWork}>
            <ListTodo /> Work details…
          </Menu.Item>
          <Menu.Item value="delete" onClick={props.onDelete}>
            <Trash2 /> Delete
          </Menu.Item>
        </RowActions>
      </td>
    </tr>
  )
}
