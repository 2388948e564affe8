import { receive } from './quire.js'

/** The hand-off lands here: keep the tokens when the state is ours, then close the tab. */
const message = document.getElementById('message')
receive(location.href).then(async (received) => {
  history.replaceState(null, '', location.pathname)
  message.textContent = received
    ? 'Quire is connected. You can close this tab.'
    : 'This sign-in was not started by this extension. Connect again from its button.'
  if (received) {
    const tab = await chrome.tabs.getCurrent()
    if (tab?.id !== undefined) await chrome.tabs.remove(tab.id)
  }
})
