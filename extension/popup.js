import { connect, disconnect, profile, setServer, settings } from './quire.js'

const $ = (id) => document.getElementById(id)

async function render() {
  const state = await settings()
  $('server').value = state.server
  $('message').textContent = ''
  let email = null
  if (state.access)
    email = await profile().then(
      (body) => body.user.email,
      () => null,
    )
  $('connected').hidden = !email
  $('disconnected').hidden = Boolean(email)
  if (email) $('email').textContent = email
}

$('connect').addEventListener('click', async () => {
  try {
    const server = await setServer($('server').value)
    const origin = `${new URL(server).origin}/*`
    // a server other than this computer needs the user's permission to be called
    if (!/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(server))
      await chrome.permissions.request({ origins: [origin] })
    await connect()
    window.close()
  } catch (error) {
    $('message').textContent = error.message
  }
})
$('disconnect').addEventListener('click', async () => {
  await disconnect()
  await render()
})
$('panel').addEventListener('click', async () => {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true })
  if (tab?.windowId !== undefined) await chrome.sidePanel.open({ windowId: tab.windowId })
  else
    await chrome.tabs.create({
      url: chrome.runtime.getURL(`panel.html${tab?.id !== undefined ? `?tab=${tab.id}` : ''}`),
    })
})
chrome.storage.onChanged.addListener(() => render())
render()
