import { Portal } from '@ark-ui/react/portal'
import { useSelector } from '@xstate/react'
import { ChevronDown, Columns3, Wand2 } from 'lucide-react'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { ANSWER_FILTER_LABELS, ANSWER_FILTERS } from '../../../contract/questionnaires.ts'
import {
  passesFilter,
  type questionnaireWorkspaceMachine,
  selectAllRows,
  selectFilter,
  selectInProgress,
  selectIsBusy,
  selectTabId,
  selectTabs,
} from '../../../machines/questionnaire-workspace/index.ts'
import { Button } from '../ui/button.tsx'
import * as Menu from '../ui/menu.tsx'

const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })
const tabsBar = css({
  display: 'flex',
  gap: '1',
  overflowX: 'auto',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  scrollbarWidth: 'thin',
})
const tabButton = css({
  px: '3',
  py: '2',
  textStyle: 'sm',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  _hover: { color: 'fg.default' },
  '&[aria-selected=true]': { color: 'fg.default', borderColor: 'colorPalette.default' },
})
const tabCount = css({ ml: '1.5', textStyle: 'xs', color: 'fg.subtle' })
const filters = css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' })
const filterButton = css({
  px: '2.5',
  py: '1',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.default',
  textStyle: 'xs',
  fontWeight: 'medium',
  cursor: 'pointer',
  bg: 'bg.default',
  '&[aria-pressed=true]': {
    bg: 'colorPalette.default',
    color: 'colorPalette.fg',
    borderColor: 'colorPalette.default',
  },
})

/** The questionnaire's tabs with their counts, the filters and the chosen tab's operations. */
export function WorkspaceTabs(props: {
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
  onCustomInstruction: () => void
}) {
  const workspaceRef = props.workspace
  const tabs = useSelector(workspaceRef, selectTabs)
  const tabId = useSelector(workspaceRef, selectTabId)
  const filter = useSelector(workspaceRef, selectFilter)
  const allRows = useSelector(workspaceRef, selectAllRows)
  const busy = useSelector(workspaceRef, selectIsBusy)
  const inProgress = useSelector(workspaceRef, selectInProgress)
  const currentTab = tabs.find((tab) => tab.id === tabId) ?? null
  // tab counts follow the rows as answers change
  const tabCounts = useMemo(() => {
    const counts = new Map<number, { questions: number; answered: number }>()
    for (const row of allRows) {
      const entry = counts.get(row.tab_id) ?? { questions: 0, answered: 0 }
      entry.questions += 1
      if (passesFilter(row, 'all') && !passesFilter(row, 'unanswered')) entry.answered += 1
      counts.set(row.tab_id, entry)
    }
    return counts
  }, [allRows])
  return (
    <>
      {tabs.length > 0 && (
        <div className={tabsBar} role="tablist" aria-label="Tabs">
          {tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              aria-selected={tab.id === tabId}
              className={tabButton}
              onClick={() => workspaceRef.send({ type: 'tab.select', tabId: tab.id })}
            >
              {tab.name}
              <span className={tabCount}>
                {tabCounts.get(tab.id)?.answered ?? 0}/{tabCounts.get(tab.id)?.questions ?? 0}
              </span>
            </button>
          ))}
        </div>
      )}

      <div className={cx(toolbar, css({ justifyContent: 'space-between' }))}>
        <fieldset className={filters} aria-label="Filter">
          {ANSWER_FILTERS.map((value) => (
            <button
              key={value}
              type="button"
              className={filterButton}
              aria-pressed={filter === value}
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
                <Button size="xs" variant="ghost" disabled={busy || inProgress}>
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
            <Button
              size="xs"
              variant="ghost"
              onClick={() => workspaceRef.send({ type: 'mapping.open', tab: currentTab.name })}
              disabled={!currentTab.preview.length}
            >
              <Columns3 /> Map columns
            </Button>
          )}
        </div>
      </div>
    </>
  )
}
