import { receive } from './quire.js'

/**
 * Catches Quire's hand-off: the sign-in tab is sent to chrome-extension://<id>/#access_token=...;
 * the tokens are stored (when the state matches) and the tab closes.
 */
chrome.tabs.onUpdated.addListener(async (tabId, change) => {
  const address = change.url
  if (!address?.startsWith(`chrome-extension://${chrome.runtime.id}/`)) return
  if (await receive(address)) await chrome.tabs.remove(tabId).catch(() => null)
})

chrome.runtime.onInstalled.addListener(() => {
  chrome.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: false }).catch(() => null)
})
