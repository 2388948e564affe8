import { Upload } from 'lucide-react'
import type { ReactNode, Ref } from 'react'
import { css, cx } from 'styled-system/css'
import { flex, grid, stack } from 'styled-system/patterns'
import { DEFAULT_MAX_UPLOAD_MB, FILE_ACCEPT } from '../../../contract/knowledge.ts'
import type { QueueItem } from '../../../machines/upload-queue/index.ts'
import { formatBytes } from '../../lib/format.ts'
import { card, errorLine, muted, nameText } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { ChooseButton, Dropzone, FilePicker } from '../ui/file-upload.tsx'
import { LinearProgress } from '../ui/progress.tsx'
import { StatusBadge } from './status-badge.tsx'

// the dashed border and the highlight while files are dragged over come from the recipe
const drop = flex({
  direction: { base: 'column', sm: 'row' },
  align: 'center',
  gap: '4',
  p: '5',
})
const root = css({ mb: '4' })
const dropText = css({
  flex: '1',
  textStyle: 'sm',
  color: 'fg.muted',
  textAlign: { base: 'center', sm: 'left' },
})
const dropTitle = css({ fontWeight: 'semibold', color: 'fg.default', textStyle: 'md' })
const queueList = stack({ gap: '2', mb: '4' })
/** One upload in flight: its name and progress, and its actions beside them. */
export const uploadRow = cx(
  card,
  grid({ gridTemplateColumns: '1fr auto', gap: '1 3', alignItems: 'center' }),
)

/**
 * Where files are dropped or chosen, acting at once: the text given and a button that opens the
 * picker (`picker` lets another button open it too).
 */
export function DropZone(props: {
  label: string
  accept: string
  testId: string
  onFiles: (files: File[]) => void
  picker?: Ref<HTMLInputElement>
  icon?: ReactNode
  chooseVariant?: 'solid' | 'outline'
  children: ReactNode
}) {
  return (
    <FilePicker
      className={root}
      accept={props.accept}
      multiple
      allowDrop
      testId={props.testId}
      inputRef={props.picker}
      onFiles={props.onFiles}
    >
      {/* the button in it opens the picker: the zone itself takes drops, not clicks */}
      <Dropzone className={drop} disableClick role="region" aria-label={props.label}>
        {props.icon}
        <div className={dropText}>{props.children}</div>
        <ChooseButton multiple variant={props.chooseVariant ?? 'solid'} />
      </Dropzone>
    </FilePicker>
  )
}

/** The repository's drop zone. */
export function UploadDrop(props: { onFiles: (files: File[]) => void }) {
  return (
    <DropZone
      label="Upload files"
      accept={FILE_ACCEPT}
      testId="file-picker"
      onFiles={props.onFiles}
      icon={<Upload aria-hidden />}
    >
      <div className={dropTitle}>Drop files here to upload</div>
      PDF, Word, Excel, CSV, text, Markdown or HTML, up to {DEFAULT_MAX_UPLOAD_MB} MB each.
    </DropZone>
  )
}

/** The uploads in flight and just finished, each with its status, progress and a retry. */
export function UploadList(props: {
  items: QueueItem[]
  hasFinished: boolean
  onRetry: (key: string) => void
  onClearFinished: () => void
}) {
  if (props.items.length === 0) return null
  return (
    <section className={queueList} aria-label="Uploads">
      {props.items.map((item) => (
        <div key={item.key} className={uploadRow} data-testid="upload-row">
          <div className={css({ minW: '0' })}>
            <div className={nameText}>{item.name}</div>
            <div className={cx(muted, css({ whiteSpace: 'normal' }))} data-testid="upload-version">
              {item.newVersion === null
                ? formatBytes(item.size)
                : item.unchanged
                  ? `Unchanged: the same as version ${item.newVersion}`
                  : `New version ${item.newVersion} · ${formatBytes(item.size)}`}
            </div>
            {item.error && <div className={errorLine}>{item.error}</div>}
          </div>
          <div className={flex({ align: 'center', gap: '2' })}>
            <StatusBadge status={item.status} progress={item.progress} />
            {item.status === 'failed' && item.fileId === null && (
              <Button size="xs" variant="outline" onClick={() => props.onRetry(item.key)}>
                Retry
              </Button>
            )}
          </div>
          {(item.status === 'uploading' || item.status === 'processing') && (
            <div className={css({ gridColumn: '1 / -1' })}>
              <LinearProgress
                value={item.progress}
                size="sm"
                showValueText={false}
                aria-label={`${item.name} progress`}
              />
            </div>
          )}
        </div>
      ))}
      {props.hasFinished && (
        <div>
          <Button size="xs" variant="ghost" onClick={props.onClearFinished}>
            Clear finished
          </Button>
        </div>
      )}
    </section>
  )
}
