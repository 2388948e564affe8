import { describe, expect, it } from 'vitest'
import { breaches, cycles, MAX_LINES } from '../../scripts/check-architecture.ts'

/** The house rules' checker (npm run lint) finds what it must, on made-up trees. */
describe('house rules', () => {
  const tree = (files: Record<string, string>) => breaches(new Map(Object.entries(files)))

  it('finds an import cycle, type imports included', () => {
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
          ['d.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']])
    const found = tree({
      'server/x/a.ts': "import type { B } from './b.ts'\nexport type A = B",
      'server/x/b.ts': "import type { A } from './a.ts'\nexport type B = A",
    })
    expect(
      found.some((line) => line.startsWith('import cycle: server/x/a.ts -> server/x/b.ts')),
    ).toBe(true)
  })

  it('refuses an import a room may not make', () => {
    expect(
      tree({ 'machines/m/m.machine.ts': "import { x } from '../../src/api/client.ts'" }),
    ).toEqual(['machines/m/m.machine.ts: may not import src/api/client.ts'])
    expect(tree({ 'server/answering/a.ts': "import { db } from '../db/index.ts'" })).toEqual([
      'server/answering/a.ts: may not import server/db/index.ts',
    ])
    expect(tree({ 'server/modules/a/service.ts': "import { r } from '../b/routes.ts'" })).toEqual([
      'server/modules/a/service.ts: may not import server/modules/b/routes.ts',
    ])
    // an area's own routes and its service are fine
    expect(tree({ 'server/modules/a/routes.ts': "import { s } from './service.ts'" })).toEqual([])
  })

  it('refuses long area files and pages that fetch or use effects', () => {
    const long = 'const x = 1\n'.repeat(MAX_LINES + 1)
    expect(tree({ 'server/modules/a/service.ts': long })).toEqual([
      `server/modules/a/service.ts: ${MAX_LINES + 1} lines, more than ${MAX_LINES}: split it by concern`,
    ])
    expect(tree({ 'server/db/schema.ts': long })).toEqual([])
    expect(
      tree({
        'src/pages/p/p-page.tsx':
          "import { useEffect } from 'react'\nimport { api } from '../../api/client.ts'\nuseEffect(() => {})",
      }),
    ).toEqual([
      'src/pages/p/p-page.tsx: useEffect in a page: the machine does this work (an actor)',
      "src/pages/p/p-page.tsx: a page calls the API itself: give the call to its machine's actor",
    ])
  })
})
