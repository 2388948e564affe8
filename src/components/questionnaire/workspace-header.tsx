import { Portal } from '@ark-ui/react/portal'
import {
  ChevronDown,
  Download,
  FileSpreadsheet,
  Globe,
  History,
  Sparkles,
  Undo2,
  UserPlus,
} from 'lucide-react'
import { css } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import { paths } from '../../../contract/paths.ts'
import { type Capability, can } from '../../../contract/roles.ts'
import {
  exportMenuView,
  type questionnaireExportMachine,
} from '../../../machines/questionnaire-export/index.ts'
import {
  type questionnaireWorkspaceMachine,
  workspaceHeaderView,
} from '../../../machines/questionnaire-workspace/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { downloadPath } from '../../api/questionnaire-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { ToasterContext } from '../../app/toaster.tsx'
import { useView } from '../../app/use-view.ts'
import { type ProductChoiceLogic, ProductPicker } from '../product-select.tsx'
import { RelativeTime } from '../relative-time.tsx'
import { toolbar } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import * as Menu from '../ui/menu.tsx'
import { ExportCounts, fillItems } from './export-choices.tsx'
import { CustomerLine, LivePaused, Viewers, WorkMeta } from './workspace-people.tsx'

const header = flex({
  direction: { base: 'column', md: 'row' },
  gap: '3',
  justify: 'space-between',
  align: { base: 'stretch', md: 'flex-start' },
})
const portalLine = css({
  textStyle: 'sm',
  color: 'fg.muted',
  overflowWrap: 'anywhere',
  '& a': { color: 'fg.default', textDecoration: 'underline', textUnderlineOffset: '2px' },
})
const titleClass = flex({
  gap: '2',
  align: 'center',
  textStyle: { base: 'xl', md: '2xl' },
  fontWeight: 'semibold',
  overflowWrap: 'anywhere',
})
const counts = wrap({ gap: '4', textStyle: 'sm', color: 'fg.muted', mt: '1' })
const count = css({ '& strong': { color: 'fg.default', fontWeight: 'semibold' } })
const exportNote = css({ textStyle: 'xs', color: 'fg.muted' })

/** The questionnaire's name and counts, its actions (generate, undo, history) and its exports. */
export function WorkspaceHeader(props: {
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
  exports: ActorRefFrom<typeof questionnaireExportMachine>
  /** Opens the assignment dialog on the tab (or the questions the filter shows). */
  onAssign: () => void
  /** The products its product is chosen from (issue 38). */
  products: ProductChoiceLogic
}) {
  const { workspace: workspaceRef, exports: exportRef } = props
  const toaster = ToasterContext.useActorRef()
  const workspace = useView(workspaceRef, workspaceHeaderView)
  const exportState = useView(exportRef, exportMenuView)
  const { questionnaire } = workspace
  const role = SessionContext.useSelector(selectProfile)?.user.role ?? null
  const may = (capability: Capability) => role === null || can(role, capability)
  if (!questionnaire) return null
  const percent = questionnaire.questions
    ? Math.round((questionnaire.answered / questionnaire.questions) * 100)
    : 0
  // the primary action follows the state: drafting first, then handing the file back
  const generateFirst = questionnaire.answered === 0
  return (
    <>
      <div className={header}>
        <div className={css({ minW: '0' })}>
          <CustomerLine questionnaire={questionnaire} />
          <h2 className={titleClass}>
            {questionnaire.kind === 'portal' ? <Globe size={22} /> : <FileSpreadsheet size={22} />}{' '}
            {questionnaire.name}
          </h2>
          {questionnaire.portal_url && (
            <p className={portalLine}>
              Read from{' '}
              <a href={questionnaire.portal_url} target="_blank" rel="noreferrer">
                {questionnaire.portal_url}
              </a>{' '}
              by Quire’s browser extension
            </p>
          )}
          <div className={counts}>
            <span className={count}>
              <strong>{questionnaire.questions.toLocaleString()}</strong> questions
            </span>
            <span className={count}>
              <strong>{questionnaire.answered.toLocaleString()}</strong> answered ({percent}%)
            </span>
            <span className={count}>
              <strong>{questionnaire.approved.toLocaleString()}</strong> approved
            </span>
            <WorkMeta questionnaire={questionnaire} />
          </div>
          <ProductPicker
            logic={props.products}
            target={{ kind: 'questionnaire', id: questionnaire.id }}
            current={questionnaire.product_id}
            canChange={may('questionnaires.write') && may('repository.write')}
            lead="Answered for"
            className={css({ mt: '1.5' })}
          />
          <Viewers viewers={workspace.viewers} />
          {workspace.livePaused && <LivePaused />}
        </div>
        <div className={toolbar}>
          {questionnaire.status === 'ready' && questionnaire.questions > 0 && (
            <Button
              size="sm"
              variant={generateFirst ? 'solid' : 'outline'}
              disabled={workspace.busy || workspace.inProgress}
              onClick={() => workspaceRef.send({ type: 'generate' })}
            >
              <Sparkles /> Generate answers
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            disabled={workspace.busy || workspace.inProgress || !questionnaire.can_undo}
            title={questionnaire.can_undo ? undefined : 'There is nothing to undo'}
            onClick={() => workspaceRef.send({ type: 'undo' })}
          >
            <Undo2 /> Undo
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'history.open' })}
          >
            <History /> History
          </Button>
          {may('questionnaires.write') && (
            <Button size="sm" variant="outline" onClick={props.onAssign}>
              <UserPlus /> Assign
            </Button>
          )}
          <Menu.Root positioning={{ placement: 'bottom-end' }}>
            <Menu.Trigger asChild>
              <Button
                size="sm"
                variant={generateFirst ? 'outline' : 'solid'}
                loading={exportState.exporting}
                disabled={workspace.inProgress}
              >
                <Download /> Export <ChevronDown />
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <ExportCounts questionnaire={questionnaire} />
                  {fillItems(exportState.approvedOnlyDefault).map((item) => (
                    <Menu.Item
                      key={item.value}
                      value={item.value}
                      disabled={!questionnaire.can_export_original}
                      onClick={() =>
                        exportRef.send({
                          type: 'export',
                          format: 'original',
                          approvedOnly: item.approvedOnly,
                        })
                      }
                    >
                      {item.label}
                      {item.isDefault && <span className={exportNote}> (default)</span>}
                    </Menu.Item>
                  ))}
                  <Menu.Item
                    value="xlsx"
                    onClick={() => exportRef.send({ type: 'export', format: 'xlsx' })}
                  >
                    Answers as an Excel table
                  </Menu.Item>
                  <Menu.Item
                    value="csv"
                    onClick={() => exportRef.send({ type: 'export', format: 'csv' })}
                  >
                    Answers as CSV
                  </Menu.Item>
                  <Menu.Item
                    value="latest"
                    disabled={!exportState.latest}
                    onClick={() => exportRef.send({ type: 'download.latest' })}
                  >
                    Download the latest export again
                  </Menu.Item>
                  <Menu.Item
                    value="source"
                    hidden={questionnaire.kind === 'portal'}
                    onClick={() =>
                      downloadPath(
                        paths.questionnaires.download(questionnaire.id),
                        questionnaire.name,
                      ).catch((error: Error) =>
                        toaster.send({
                          type: 'toast.show',
                          toast: { type: 'error', title: error.message },
                        }),
                      )
                    }
                  >
                    Download the file as received
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </div>
      </div>

      {exportState.latest && (
        <p className={exportNote} data-testid="export-note">
          Latest export: {exportState.latest.name},{' '}
          <RelativeTime iso={exportState.latest.created_at} /> ·{' '}
          {exportState.latest.current ? 'up to date' : 'answers changed since'}
          {exportState.exporting && exportState.exportFormat ? ' · exporting…' : ''}
        </p>
      )}
      {exportState.run && (
        <p className={exportNote} data-testid="export-progress" role="status">
          Exporting: {exportState.run.label ?? 'waiting to start'} · {exportState.run.progress}%
        </p>
      )}
    </>
  )
}
