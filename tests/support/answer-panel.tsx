import { render, screen } from '@testing-library/react'
import { vi } from 'vitest'
import { createActor } from 'xstate'
import type { QuestionRow } from '../../contract/questionnaires.ts'
import { answerMachine } from '../../machines/answer/index.ts'
import { questionnaireWorkspaceMachine } from '../../machines/questionnaire-workspace/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { AnswerPanel } from '../../src/components/questionnaire/answer-panel.tsx'
import { readingSession } from './ui-session.ts'

/** What the workspace's views need of a layout jsdom does not do. */
export function stubLayout() {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  if (!('ResizeObserver' in globalThis)) vi.stubGlobal('ResizeObserver', ResizeObserverStub)
  // jsdom lays nothing out: give elements a size so that the virtualised grid renders its rows
  for (const [name, value] of [
    ['offsetHeight', 800],
    ['offsetWidth', 900],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => value })
  }
}

/** The answer panel of one row, its answer machine `logic`; the panel's region. */
export function renderAnswerPanel(row: QuestionRow, logic: typeof answerMachine = answerMachine) {
  render(
    <SessionContext.Provider logic={readingSession}>
      <AnswerPanel
        row={row}
        logic={logic}
        // never started: the panel only follows its rows
        workspace={createActor(questionnaireWorkspaceMachine, { input: { id: 7 } })}
        onChange={() => {}}
        onSelectCandidate={() => {}}
        onDelete={() => {}}
        onApplyConsistency={() => {}}
        evidenceFiles={[]}
        onWantFiles={() => {}}
        busy={false}
      />
    </SessionContext.Provider>,
  )
  return screen.getByRole('region', { name: 'Answer' })
}
