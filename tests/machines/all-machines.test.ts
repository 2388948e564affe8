import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/** Every machine folder has a path test that proves full graph coverage. */
const machinesDir = path.resolve(import.meta.dirname, '../../machines')
const testsDir = import.meta.dirname

describe('machines', () => {
  const flows = readdirSync(machinesDir).filter((name) =>
    statSync(path.join(machinesDir, name)).isDirectory(),
  )
  it('has flows', () => expect(flows.length).toBeGreaterThan(0))

  for (const flow of flows) {
    it(`${flow}: every machine file has a coverage test`, () => {
      const machineFiles = readdirSync(path.join(machinesDir, flow)).filter((file) =>
        file.endsWith('.machine.ts'),
      )
      expect(machineFiles.length).toBeGreaterThan(0)
      for (const file of machineFiles) {
        const name = file.replace('.machine.ts', '')
        const test = path.join(testsDir, `${name}.test.ts`)
        expect(existsSync(test), `tests/machines/${name}.test.ts`).toBe(true)
        // testEveryPath (./every-path.ts) runs testMachineCoverage with the usual expectations
        expect(readFileSync(test, 'utf8')).toMatch(/testMachineCoverage\(|testEveryPath\(/)
      }
    })
  }
})
