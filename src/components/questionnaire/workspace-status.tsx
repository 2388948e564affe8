import { AlertTriangle, Columns3, RefreshCw, Square } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type questionnaireWorkspaceMachine,
  workspaceStatusView,
} from '../../../machines/questionnaire-workspace/index.ts'
import { useView } from '../../app/use-view.ts'
import { callout } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { LinearProgress } from '../ui/progress.tsx'
import { MappingButton } from './mapping-button.tsx'

const notice = callout({ tone: 'amber', layout: 'bar' })
const failure = callout({ tone: 'red', layout: 'bar' })

/** The analysis or generation in progress, a failed analysis, and a tab whose mapping is unsure. */
export function WorkspaceStatus(props: {
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
}) {
  const workspaceRef = props.workspace
  const view = useView(workspaceRef, workspaceStatusView)
  if (!view.questionnaire) return null
  const unsureTab = view.tabs.find((tab) => tab.mapping_state === 'unsure')
  return (
    <>
      {view.inProgress && (
        <div className={flex({ gap: '3', align: 'flex-end' })}>
          <LinearProgress
            className={css({ flex: '1' })}
            value={view.questionnaire.progress}
            label={
              view.questionnaire.progress_label ??
              (view.generating ? 'Generating answers' : 'Analysing the questionnaire')
            }
            aria-label={view.generating ? 'Generation progress' : 'Analysis progress'}
          />
          {view.generating && (
            <Button
              size="xs"
              variant="outline"
              loading={view.cancelling}
              onClick={() => workspaceRef.send({ type: 'generate.cancel' })}
            >
              <Square /> Stop
            </Button>
          )}
        </div>
      )}
      {view.questionnaire.status === 'failed' && view.questionnaire.error && (
        <div className={failure} role="alert">
          <AlertTriangle size={18} />
          <span className={css({ flex: '1' })}>{view.questionnaire.error}</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'reanalyze' })}
          >
            <RefreshCw /> Re-analyze
          </Button>
        </div>
      )}
      {unsureTab && !view.inProgress && (
        <div className={notice}>
          <Columns3 size={18} />
          <span className={css({ flex: '1' })}>
            Quire is not sure where the questions and answers are on the tab “{unsureTab.name}”.
          </span>
          <MappingButton workspace={workspaceRef} tab={unsureTab.name}>
            Check the mapping
          </MappingButton>
        </div>
      )}
    </>
  )
}
