import { css, cx } from 'styled-system/css'
import type { RepositoryFile } from '../../../contract/knowledge.ts'
import type { QueueItem } from '../../../machines/upload-queue/index.ts'
import { pill } from '../styles.ts'
import { Spinner } from '../ui/spinner.tsx'

export const STATUS_LABELS = {
  queued: 'Queued',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
} as const

const badge = css({
  gap: '1.5',
  '&[data-status=ready]': { bg: 'green.a3', color: 'green.text' },
  '&[data-status=failed]': { bg: 'red.a3', color: 'red.text' },
  '&[data-status=queued], &[data-status=processing], &[data-status=uploading], &[data-status=waiting]':
    { bg: 'colorPalette.a3', color: 'colorPalette.text' },
})

/** A file's or an upload's status, with its progress while it moves. */
export function StatusBadge(props: {
  status: RepositoryFile['status'] | QueueItem['status']
  progress: number
}) {
  const label =
    props.status === 'waiting'
      ? 'Waiting'
      : props.status === 'uploading'
        ? 'Uploading'
        : STATUS_LABELS[props.status]
  const moving = props.status === 'processing' || props.status === 'uploading'
  return (
    <span className={cx(pill, badge)} data-status={props.status}>
      {moving && <Spinner size="sm" />}
      {label}
      {moving && props.progress > 0 ? ` ${props.progress}%` : ''}
    </span>
  )
}
