import { receive } from './quire.js'

/**
 * The hand-off lands on connected.html (connected.js keeps the tokens); a tab that reaches the
 * extension's address some other way is read here too.
 */
chrome.tabs.onUpdated.addListener(async (tabId, change) => {
  const address = change.url
  if (!address?.startsWith(chrome.runtime.getURL('connected.html'))) return
  if (await receive(address)) await chrome.tabs.remove(tabId).catch(() => null)
})

chrome.runtime.onInstalled.addListener(() => {
  chrome.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: false }).catch(() => null)
})

/**
 * Issue 42: the portal panel marks the fields it filled; when the panel closes (its port
 * disconnects) the marks are taken off those pages.
 */
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'portal-panel') return
  const marked = new Set()
  port.onMessage.addListener((message) => {
    if (message?.type === 'marked' && Number.isInteger(message.tabId)) marked.add(message.tabId)
  })
  port.onDisconnect.addListener(() => {
    for (const tabId of marked)
      chrome.scripting
        .executeScript({ target: { tabId }, func: () => window.__quireReader?.unmark() })
        .catch(() => null)
  })
})
