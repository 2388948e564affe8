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
