import { citationText, search, settings } from './quire.js'

const $ = (id) => document.getElementById(id)

/** Results are text nodes only: nothing from the server is parsed as HTML. */
function show(results) {
  const list = $('results')
  list.replaceChildren()
  for (const result of results) {
    const item = document.createElement('article')
    item.className = 'result'
    const text = document.createElement('p')
    text.textContent = result.text
    const source = document.createElement('div')
    source.className = 'source'
    source.textContent = `Source: ${result.source.name}`
    const copy = document.createElement('button')
    copy.type = 'button'
    copy.className = 'secondary'
    copy.textContent = 'Copy with source'
    copy.addEventListener('click', async () => {
      await navigator.clipboard.writeText(citationText(result))
      copy.textContent = 'Copied'
    })
    item.append(text, source, copy)
    list.append(item)
  }
}

$('form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const q = $('q').value.trim()
  if (!q) return
  const { access } = await settings()
  if (!access) {
    $('message').textContent = 'Connect to Quire first (the extension’s button).'
    return
  }
  $('message').textContent = 'Searching...'
  try {
    const results = await search(q)
    $('message').textContent = results.length
      ? `${results.length} found`
      : 'Nothing found for that question.'
    show(results)
  } catch (error) {
    $('message').textContent = error.message
  }
})
