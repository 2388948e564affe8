import { useSelector } from '@xstate/react'
import { AlertTriangle, Columns3, RefreshCw, Square } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import {
  type questionnaireWorkspaceMachine,
  selectInProgress,
  selectIsCancelling,
  selectIsGenerating,
  selectQuestionnaire,
  selectTabs,
} from '../../../machines/questionnaire-workspace/index.ts'
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
  const questionnaire = useSelector(workspaceRef, selectQuestionnaire)
  const tabs = useSelector(workspaceRef, selectTabs)
  const inProgress = useSelector(workspaceRef, selectInProgress)
  const generating = useSelector(workspaceRef, selectIsGenerating)
  const cancelling = useSelector(workspaceRef, selectIsCancelling)
  if (!questionnaire) return null
  const unsureTab = tabs.find((tab) => tab.mapping_state === 'unsure')
  return (
    <>
      {inProgress && (
        <div className={flex({ gap: '3', align: 'flex-end' })}>
          <LinearProgress
            className={css({ flex: '1' })}
            value={questionnaire.progress}
            label={
              questionnaire.progress_label ??
              (generating ? 'Generating answers' : 'Analysing the questionnaire')
            }
            aria-label={generating ? 'Generation progress' : 'Analysis progress'}
          />
          {generating && (
            <Button
              size="xs"
              variant="outline"
              loading={cancelling}
              onClick={() => workspaceRef.send({ type: 'generate.cancel' })}
            >
              <Square /> Stop
            </Button>
          )}
        </div>
      )}
      {questionnaire.status === 'failed' && questionnaire.error && (
        <div className={failure} role="alert">
          <AlertTriangle size={18} />
          <span className={css({ flex: '1' })}>{questionnaire.error}</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => workspaceRef.send({ type: 'reanalyze' })}
          >
            <RefreshCw /> Re-analyze
          </Button>
        </div>
      )}
      {unsureTab && !inProgress && (
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
