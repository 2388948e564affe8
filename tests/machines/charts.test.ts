import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMachine } from 'xstate'
import {
  chartProblems,
  checkFile,
  runtimeCharts,
  staticCharts,
  undescribedTimedStates,
} from '../../scripts/check-charts.ts'
import * as fixture from '../fixtures/charts/built-states.ts'

/** The chart check (npm run lint) sees what a static reader sees, and fails where it differs. */
describe('literal charts', () => {
  const fixtureFile = path.resolve(import.meta.dirname, '../fixtures/charts/built-states.ts')
  const source = readFileSync(fixtureFile, 'utf8')

  it('reads a machine statically, without the states functions build', () => {
    expect(staticCharts(source)).toEqual(
      new Map([
        ['built', ['idle', 'done']],
        ['literal', ['idle', 'waiting', 'sending', 'sending.sending', 'sending.sent', 'done']],
      ]),
    )
    expect(runtimeCharts(fixture).get('built')).toEqual([
      'idle',
      'waiting',
      'sending',
      'sending.sending',
      'sending.sent',
      'done',
    ])
  })

  it('fails on a machine whose states a function builds, naming them; passes it written out', () => {
    const problems = chartProblems('fixture.ts', source, fixture)
    // one problem: the built machine's; the literal one passes
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(
      'fixture.ts (built): a static reader sees 3 of the 7 state nodes XState runs',
    )
    expect(problems[0]).toContain(
      'not seen statically: waiting, sending, sending.sending, sending.sent',
    )
  })

  it('names states a static reader sees that XState does not run, and files without machines', () => {
    const text = "createMachine({ id: 'm', initial: 'a', states: { a: {}, b: {} } })"
    const machine = createMachine({ id: 'm', initial: 'a', states: { a: {} } })
    expect(chartProblems('m.machine.ts', text, { machine })).toEqual([
      expect.stringContaining('seen statically but not run: b'),
    ])
    expect(chartProblems('m.machine.ts', text, {})).toEqual([
      'm.machine.ts: exports no machine',
      'm.machine.ts (m): a static reader finds a machine the module does not export',
    ])
  })

  it('passes the machines whose states were built by helpers before', async () => {
    const root = path.resolve(import.meta.dirname, '../..')
    for (const flow of ['people', 'reset-password', 'set-password'])
      expect(await checkFile(path.join(root, `machines/${flow}/${flow}.machine.ts`))).toEqual([])
  })

  it('asks a flow with timers, and only such a flow, to describe every state', () => {
    const timed = createMachine({
      id: 'timed',
      initial: 'waiting',
      states: {
        waiting: { description: 'Until the poll.', after: { 1000: 'polling' } },
        polling: { initial: 'asking', states: { asking: {} } },
      },
    })
    expect(undescribedTimedStates(timed)).toEqual(['polling', 'polling.asking'])
    const untimed = createMachine({ id: 'plain', initial: 'a', states: { a: {}, b: {} } })
    expect(undescribedTimedStates(untimed)).toEqual([])
    const text =
      "createMachine({ id: 'timed', initial: 'waiting', states: { waiting: {}, polling: { initial: 'asking', states: { asking: {} } } } })"
    expect(chartProblems('t.machine.ts', text, { timed })).toEqual([
      't.machine.ts (timed): a flow with timers describes every state; no description: polling, polling.asking',
    ])
  })
})
