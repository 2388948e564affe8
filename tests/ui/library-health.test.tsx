import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import { libraryHealthMachine } from '../../machines/library-health/index.ts'
import { LibraryHealthPanel } from '../../src/pages/knowledge-base/library-health.tsx'

/**
 * Issue 43: the per-state check found the health panel silent when its check failed (no groups
 * and zero counts read as a healthy library). A failed check says so, and offers to try again.
 */
describe('library health panel', () => {
  it('says when the check failed, and shows the counts once a retry works', async () => {
    let calls = 0
    const health: LibraryHealth = {
      counts: { stale: 1, due: 0, source_changed: 0, conflicts: 0 },
      groups: [],
    }
    const actor = createActor(
      libraryHealthMachine.provide({
        actors: {
          loadHealth: fromPromise<LibraryHealth, void>(async () => {
            calls += 1
            if (calls === 1) throw new Error('The server did not answer.')
            return health
          }),
        },
      }),
    ).start()
    render(<LibraryHealthPanel actor={actor} onDelete={() => {}} onFreshness={() => {}} />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('The server did not answer.')
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    const panel = await screen.findByTestId('library-health')
    expect(within(panel).getByTestId('health-stale').textContent).toContain('1')
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
