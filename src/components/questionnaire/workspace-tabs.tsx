import { Portal } from '@ark-ui/react/portal'
import { ChevronDown, Columns3, Wand2 } from 'lucide-react'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { ANSWER_FILTER_LABELS, ANSWER_FILTERS } from '../../../contract/questionnaires.ts'
import {
  passesFilter,
  type questionnaireWorkspaceMachine,
  workspaceTabsView,
} from '../../../machines/questionnaire-workspace/index.ts'
import { useView } from '../../app/use-view.ts'
import { filterPill, filterPills, toolbar } from '../styles.ts'
import { TabBar } from '../tab-bar.tsx'
import { Button } from '../ui/button.tsx'
import * as Menu from '../ui/menu.tsx'
import { MappingButton } from './mapping-button.tsx'

// the questionnaire's tab bar scrolls with a thin scroll bar; a tab lights up under the pointer
const tabsBar = css({ scrollbarWidth: 'thin' })
const tabButton = css({ _hover: { color: 'fg.default' } })
const tabCount = css({ ml: '1.5', textStyle: 'xs', color: 'fg.subtle' })

/** The questionnaire's tabs with their counts, the filters and the chosen tab's operations. */
export function WorkspaceTabs(props: {
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
  onCustomInstruction: () => void
}) {
  const workspaceRef = props.workspace
  const view = useView(workspaceRef, workspaceTabsView)
  const currentTab = view.tabs.find((tab) => tab.id === view.tabId) ?? null
  // tab counts follow the rows as answers change
  const tabCounts = useMemo(() => {
    const counts = new Map<number, { questions: number; answered: number }>()
    for (const row of view.allRows) {
      const entry = counts.get(row.tab_id) ?? { questions: 0, answered: 0 }
      entry.questions += 1
      if (passesFilter(row, 'all') && !passesFilter(row, 'unanswered')) entry.answered += 1
      counts.set(row.tab_id, entry)
    }
    return counts
  }, [view.allRows])
  return (
    <>
      {view.tabs.length > 0 && (
        <TabBar
          label="Tabs"
          className={tabsBar}
          tabClassName={tabButton}
          selected={view.tabId}
          onSelect={(id) => workspaceRef.send({ type: 'tab.select', tabId: id })}
          tabs={view.tabs.map((tab) => ({
            id: tab.id,
            content: (
              <>
                {tab.name}
                <span className={tabCount}>
                  {tabCounts.get(tab.id)?.answered ?? 0}/{tabCounts.get(tab.id)?.questions ?? 0}
                </span>
              </>
            ),
          }))}
        />
      )}

      <div className={cx(toolbar, css({ justifyContent: 'space-between' }))}>
        <fieldset className={filterPills} aria-label="Filter">
          {ANSWER_FILTERS.map((value) => (
            <button
              key={value}
              type="button"
              className={filterPill}
              aria-pressed={view.filter === value}
              onClick={() => workspaceRef.send({ type: 'filter.set', filter: value })}
            >
              {ANSWER_FILTER_LABELS[value]}
            </button>
          ))}
        </fieldset>
        <div className={toolbar}>
          {currentTab && (
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <Button size="xs" variant="ghost" disabled={view.busy || view.inProgress}>
                  <Wand2 /> Section <ChevronDown />
                </Button>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {(
                      [
                        ['consistency', 'Make answers consistent'],
                        ['shorten', 'Shorten answers'],
                        ['examples', 'Add examples from the evidence'],
                      ] as const
                    ).map(([operation, label]) => (
                      <Menu.Item
                        key={operation}
                        value={operation}
                        onClick={() =>
                          workspaceRef.send({
                            type: 'section.run',
                            operation,
                            tabId: currentTab.id,
                          })
                        }
                      >
                        {label}
                      </Menu.Item>
                    ))}
                    <Menu.Item value="custom" onClick={props.onCustomInstruction}>
                      Custom instruction…
                    </Menu.Item>
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          )}
          {currentTab && (
            <MappingButton
              workspace={workspaceRef}
              tab={currentTab.name}
              size="xs"
              variant="ghost"
              disabled={!currentTab.preview.length}
            >
              <Columns3 /> Map columns
            </MappingButton>
          )}
        </div>
      </div>
    </>
  )
}
