import { install } from './reader.ts'

/** dist/extension/reader.js: injected into the tab a person asks about, defines `window.__quireReader`. */
install(window as Window & { __quireReader?: never })
