import { Portal } from '@ark-ui/react/portal'
import { ChevronDown, Columns3, Wand2 } from 'lucide-react'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import {
  ANSWER_FILTER_LABELS,
  ANSWER_FILTERS,
  type SectionOperation,
} from '../../../contract/questionnaires.ts'
import {
  offeredFilters,
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
import { SECTION_OPERATION_LABELS } from './section-preview-dialog.tsx'

// the questionnaire's tab bar scrolls with a thin scroll bar; a tab lights up under the pointer
const tabsBar = css({ scrollbarWidth: 'thin' })
const tabButton = css({ _hover: { color: 'fg.default' } })
const tabCount = css({ ml: '1.5', textStyle: 'xs', color: 'fg.subtle' })
// on a phone the folded tabs' menu takes its own line, so the questions' tabs keep the width
const tabsRow = css({
  display: 'flex',
  flexWrap: { base: 'wrap', md: 'nowrap' },
  alignItems: 'flex-end',
  justifyContent: 'flex-end',
  gap: { base: '1', md: '2' },
  minW: '0',
  '& > :first-child': { flex: '1', minW: '0', flexBasis: { base: '100%', md: 'auto' } },
})
const foldedButton = css({ flexShrink: 0, color: 'fg.muted', mb: '1' })
const chipCount = css({
  ml: '1.5',
  fontVariantNumeric: 'tabular-nums',
  color: 'fg.muted',
  '[aria-pressed=true] > &': { color: 'inherit', opacity: 0.85 },
})

/** The questionnaire's tabs with their counts, the filters and the chosen tab's operations. */
export function WorkspaceTabs(props: {
  workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>
  onCustomInstruction: () => void
  /** A section operation is previewed before it is run (issue 30). */
  onSection: (operation: SectionOperation, tabId: number) => void
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
  // tabs without questions (instructions, lists) fold into one menu, so that on a phone the
  // questions' tabs stay in sight; the chosen tab always shows (issue 30)
  const shown = view.tabs.filter((tab) => tabCounts.has(tab.id) || tab.id === view.tabId)
  const folded = view.tabs.filter((tab) => !tabCounts.has(tab.id) && tab.id !== view.tabId)
  // each filter with how many of this tab's questions it shows
  const filterCounts = useMemo(() => {
    const rows = view.allRows.filter((row) => view.tabId === null || row.tab_id === view.tabId)
    return new Map(
      ANSWER_FILTERS.map((value) => [value, rows.filter((row) => passesFilter(row, value)).length]),
    )
  }, [view.allRows, view.tabId])
  return (
    <>
      {view.tabs.length > 0 && (
        <div className={tabsRow}>
          <TabBar
            label="Tabs"
            className={tabsBar}
            tabClassName={tabButton}
            selected={view.tabId}
            onSelect={(id) => workspaceRef.send({ type: 'tab.select', tabId: id })}
            tabs={shown.map((tab) => ({
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
          {folded.length > 0 && (
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <Button size="xs" variant="ghost" className={foldedButton}>
                  {folded.length === 1 ? '1 tab' : `${folded.length} tabs`} without questions{' '}
                  <ChevronDown />
                </Button>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {folded.map((tab) => (
                      <Menu.Item
                        key={tab.id}
                        value={String(tab.id)}
                        onClick={() => workspaceRef.send({ type: 'tab.select', tabId: tab.id })}
                      >
                        {tab.name}
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          )}
        </div>
      )}

      <div className={cx(toolbar, css({ justifyContent: 'space-between' }))}>
        <fieldset className={filterPills} aria-label="Filter">
          {offeredFilters(filterCounts, view.filter).map((value) => (
            <button
              key={value}
              type="button"
              className={filterPill}
              aria-pressed={view.filter === value}
              title={`${filterCounts.get(value) ?? 0} of this tab’s questions`}
              onClick={() => workspaceRef.send({ type: 'filter.set', filter: value })}
            >
              {ANSWER_FILTER_LABELS[value]}
              <span className={chipCount} aria-hidden data-testid="filter-count">
                {filterCounts.get(value) ?? 0}
              </span>
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
                    {(['consistency', 'shorten', 'examples'] as const).map((operation) => (
                      <Menu.Item
                        key={operation}
                        value={operation}
                        onClick={() => props.onSection(operation, currentTab.id)}
                      >
                        {SECTION_OPERATION_LABELS[operation]}…
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
