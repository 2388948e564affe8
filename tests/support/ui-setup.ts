import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// jsdom has no Element.scrollTo; Ark's Select scrolls its list to the top when it opens.
if (typeof Element !== 'undefined' && !Element.prototype.scrollTo) {
  Element.prototype.scrollTo = () => {}
}

// jsdom has no ResizeObserver; Ark's positioning (menus, tooltips, segment indicators) observes
// its elements.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
}

afterEach(() => {
  cleanup()
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    if (name) document.cookie = `${name}=; max-age=0; path=/`
  }
  localStorage.clear()
  sessionStorage.clear()
})
