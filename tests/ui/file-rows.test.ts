import { describe, expect, it } from 'vitest'
import { fileListContent, fileRow } from '../../machines/file-list/index.ts'
import { repositoryFileOf as fileOf } from '../fixtures/repository-files.ts'

/** Issue 43: the repository list's content and rows come ready from the machine's view. */
describe('the repository list', () => {
  const view = { listError: null, loading: false, files: [] as unknown[], filtered: false }

  it('shows its error first, then loading, then the table once there is a file or an upload', () => {
    expect(fileListContent({ ...view, listError: 'offline', loading: true }, 0)).toBe('error')
    expect(fileListContent({ ...view, loading: true }, 0)).toBe('loading')
    expect(fileListContent({ ...view, files: [1] }, 0)).toBe('table')
    // uploads still in the browser are rows too
    expect(fileListContent(view, 1)).toBe('table')
  })

  it('tells a first run from a search that matches nothing', () => {
    expect(fileListContent(view, 0)).toBe('empty')
    expect(fileListContent({ ...view, filtered: true }, 0)).toBe('noMatch')
  })

  it('offers no upload to replace a file fetched from an address, nor while one is replaced', () => {
    expect(fileRow(fileOf({}), { replacing: false }).replaceDisabled).toBe(false)
    expect(fileRow(fileOf({}), { replacing: true }).replaceDisabled).toBe(true)
    expect(
      fileRow(fileOf({ source_url: 'https://example.com/trust' }), { replacing: false })
        .replaceDisabled,
    ).toBe(true)
  })
})
