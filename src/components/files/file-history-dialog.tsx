import { Download } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { FileVersion } from '../../../contract/knowledge.ts'
import {
  type fileVersionsMachine,
  fileVersionsView,
} from '../../../machines/file-versions/index.ts'
import { useView } from '../../app/use-view.ts'
import { formatBytes } from '../../lib/format.ts'
import { DialogFrame } from '../dialog-frame.tsx'
import { RelativeTime } from '../relative-time.tsx'
import { RetryAlert } from '../row-actions.tsx'
import { dialogBox, pill } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { Spinner } from '../ui/spinner.tsx'

const list = css({ display: 'flex', flexDirection: 'column' })
// a version: its number and name, then when, who and how big; the download beside or under it
const row = css({
  display: 'grid',
  // on a phone the download goes under the version, so that the name keeps the full width
  gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) auto' },
  justifyItems: { base: 'start', sm: 'stretch' },
  gap: '3',
  alignItems: 'center',
  py: '3',
  borderTopWidth: '1px',
  borderColor: 'border.subtle',
  _first: { borderTopWidth: '0', pt: '0' },
})
const title = css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })
const versionName = css({ fontWeight: 'medium', overflowWrap: 'anywhere' })
const currentPill = css({ bg: 'green.a3', color: 'green.text' })
const meta = css({ textStyle: 'sm', color: 'fg.muted', mt: '0.5' })

/** A repository file's versions, newest first, each with its download. */
export function FileHistoryDialog(props: {
  actor: ActorRefFrom<typeof fileVersionsMachine>
  onDownload: (fileId: number, version: FileVersion) => void
}) {
  const view = useView(props.actor, fileVersionsView)
  const close = () => props.actor.send({ type: 'close' })
  return (
    <DialogFrame
      open={view.open}
      onClose={close}
      className={dialogBox({ size: 'xl' })}
      title="Version history"
      description={view.file?.name}
    >
      {view.error ? (
        <RetryAlert error={view.error} onRetry={() => props.actor.send({ type: 'retry' })} />
      ) : view.loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '8' })}>
          <Spinner />
        </div>
      ) : (
        <ol className={list} aria-label="Versions">
          {view.versions.map((version) => (
            <li key={version.version} className={row} data-testid="file-version">
              <div className={css({ minW: '0' })}>
                <div className={title}>
                  <strong>Version {version.version}</strong>
                  {version.current && <span className={cx(pill, currentPill)}>Current</span>}
                </div>
                <div className={versionName}>{version.name}</div>
                <div className={meta}>
                  <RelativeTime iso={version.created_at} />
                  {version.created_by ? ` · ${version.created_by.name}` : ''} ·{' '}
                  {formatBytes(version.size_bytes)}
                </div>
              </div>
              <Button
                size="sm"
                variant="outline"
                onClick={() => view.file && props.onDownload(view.file.id, version)}
                aria-label={`Download version ${version.version}`}
              >
                <Download /> Download
              </Button>
            </li>
          ))}
        </ol>
      )}
      <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
        <Button variant="outline" onClick={close}>
          Close
        </Button>
      </div>
    </DialogFrame>
  )
}
