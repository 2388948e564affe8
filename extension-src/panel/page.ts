import type { PortalField } from '../../contract/portal.ts'
import type { FillItem, FillOutcome, PageRead } from '../../machines/portal-panel/index.ts'
import type { FillResult, QuireReader } from '../reader.ts'

/**
 * The panel's hands on the page (issue 42): the reader (reader.js) injected into the tab the
 * person is on, only when they ask, with `activeTab` (granted by their click on the extension)
 * or, failing that, the page's origin granted for this use. Nothing is read but what the
 * reader returns: the fields' words, kinds, options and values, the address and the title.
 */

declare global {
  interface Window {
    __quireReader?: QuireReader
  }
}

export const NOT_A_WEB_PAGE = 'Quire reads web pages only: open the portal’s page in this tab.'
export const NO_ACCESS =
  'Quire needs your permission to read this page. Choose “Read this page” again and allow it.'

/** The tab the panel works on: the one it was opened for (?tab=), else the active one. */
export async function targetTab(): Promise<chrome.tabs.Tab & { id: number }> {
  const named = Number(new URLSearchParams(location.search).get('tab'))
  const tab = named
    ? await chrome.tabs.get(named)
    : (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]
  if (tab?.id === undefined || !/^https?:/.test(tab.url ?? '')) throw new Error(NOT_A_WEB_PAGE)
  return tab as chrome.tabs.Tab & { id: number }
}

/** Runs the reader in the tab; asks for the page's origin once if activeTab does not reach it. */
async function inTab<T, A extends unknown[]>(
  tab: chrome.tabs.Tab & { id: number },
  func: (...args: A) => T,
  args: A,
): Promise<T> {
  const run = async () => {
    await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: ['reader.js'] })
    const [first] = await chrome.scripting.executeScript({
      target: { tabId: tab.id },
      func: func as unknown as (...args: never[]) => T,
      args,
    })
    return first?.result as T
  }
  try {
    return await run()
  } catch (error) {
    const origin = `${new URL(tab.url ?? '').origin}/*`
    if (await chrome.permissions.contains({ origins: [origin] })) throw error
    if (!(await chrome.permissions.request({ origins: [origin] }))) throw new Error(NO_ACCESS)
    return run()
  }
}

export async function readPage(): Promise<PageRead> {
  const tab = await targetTab()
  const fields = await inTab(tab, () => window.__quireReader?.read() ?? [], [])
  return {
    url: tab.url ?? '',
    title: tab.title ?? '',
    fields: (fields as PortalField[]).filter((field) => field.question.trim()),
  }
}

/** Fills each item in turn; a field that holds something is reported with what it holds. */
export async function fillFields(items: FillItem[]): Promise<FillOutcome[]> {
  const tab = await targetTab()
  const results = await inTab(
    tab,
    (wanted: FillItem[]) => {
      const reader = window.__quireReader
      if (!reader) return []
      const held = new Map(reader.read().map((field) => [field.key, field.value]))
      return wanted.map((item) => {
        const result: FillResult = reader.fill(item.key, item.value, { overwrite: item.overwrite })
        const current = held.get(item.key) ?? ''
        return {
          key: item.key,
          answerId: item.answerId,
          ok: result.ok,
          reason: result.reason,
          occupied: !result.ok && !item.overwrite && current.trim() !== '',
          current,
          overwrote: item.overwrite && current.trim() !== '',
        }
      })
    },
    [items],
  )
  const filled = (results as FillOutcome[]).filter((outcome) => outcome.ok).map((o) => o.key)
  if (filled.length) await markFilled(tab, filled)
  return results as FillOutcome[]
}

/** Marks filled fields on the page; the background clears the marks when the panel closes. */
async function markFilled(tab: chrome.tabs.Tab & { id: number }, keys: string[]) {
  await chrome.scripting.executeScript({
    target: { tabId: tab.id },
    func: ((wanted: string[]) => window.__quireReader?.mark(wanted) ?? 0) as unknown as (
      ...args: never[]
    ) => number,
    args: [keys],
  })
  markedTabs.add(tab.id)
  panelPort?.postMessage({ type: 'marked', tabId: tab.id })
}

const markedTabs = new Set<number>()
let panelPort: chrome.runtime.Port | null = null

/** The panel's line to the background, which unmarks the pages when it closes. */
export function connectPanel() {
  panelPort = chrome.runtime.connect({ name: 'portal-panel' })
}
