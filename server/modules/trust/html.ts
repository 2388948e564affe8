import { createHash } from 'node:crypto'
import { API_PREFIX, paths } from '../../../contract/paths.ts'
import type { PublicTrustPage, TrustSection } from '../../../contract/trust.ts'
import { TRUST_TEXTS } from '../../../contract/trust.ts'
import type { TrustShell } from './shell.ts'

/**
 * The trust centre's page as HTML (issue 40), read without JavaScript: crawlable, with its title
 * and description, every section the admin chose in the order chosen. Its one style block is
 * allowed by its hash, and nothing else runs or loads (a strict Content-Security-Policy).
 */

const CSS = `
body{margin:0}
.tp{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c2024;background:#fafafa;min-height:100vh}
.tp main{max-width:56rem;margin:0 auto;padding:2rem 1.25rem 4rem}
.tp header{border-bottom:1px solid #e4e4e7;margin-bottom:1.5rem;padding-bottom:1rem}
.tp .logo{display:block;max-height:3rem;max-width:12rem;margin-bottom:.75rem}
.tp h1{font-size:1.75rem;margin:0 0 .25rem}.tp h2{font-size:1.15rem;margin:2rem 0 .75rem}
.tp p{line-height:1.55}.tp .muted{color:#60646c;font-size:.9rem}
.tp ul{padding:0;list-style:none;display:grid;gap:.5rem}
.tp li{background:#fff;border:1px solid #e4e4e7;border-radius:.5rem;padding:.75rem 1rem}
.tp dt{font-weight:600}.tp dd{margin:.25rem 0 0;color:#3a3f45}
.tp .tag{display:inline-block;font-size:.75rem;border-radius:999px;padding:.1rem .5rem;background:#eef0ff;color:#3e4bb5;margin-left:.5rem}
.tp a{color:#3e4bb5}
.tp .notice{background:#fff8e6;border:1px solid #f3d48b;border-radius:.5rem;padding:.75rem 1rem}
.tp button{font:inherit;padding:.4rem .9rem;border-radius:.4rem;border:1px solid #3e4bb5;background:#3e4bb5;color:#fff;cursor:pointer}
`.trim()
const CSS_HASH = createHash('sha256').update(CSS).digest('base64')

/**
 * The page's Content-Security-Policy: its own style block, nothing else. Every rule of that block
 * is scoped to the page's own wrapper (.tp), so that the web app, once it takes the page over,
 * is styled by its own sheets only.
 */
export const TRUST_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${CSS_HASH}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The policy of the page that carries the built web app (shell.ts): the app's own scripts,
 * styles, fonts and calls, and the page's style block by its hash; still nothing inline runs.
 */
export const TRUST_SHELL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' 'sha256-${CSS_HASH}'`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p>${escapeHtml(part)}</p>`)
    .join('')

const kb = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1048576).toFixed(1)} MB`

/** What the page knows of its visitor: a reader under NDA, a link to open, a problem to say. */
export interface PageVisit {
  reader?: { email: string } | null
  /** The emailed one-time link's token, to be exchanged by the visitor's own click. */
  access?: string | null
  error?: string | null
}

function section(
  page: PublicTrustPage,
  kind: TrustSection,
  downloadOf: (id: number) => string,
  visit: PageVisit,
) {
  switch (kind) {
    case 'overview':
      return page.overview ? `<section><h2>Overview</h2>${paragraphs(page.overview)}</section>` : ''
    case 'certifications':
      return page.certifications.length
        ? `<section><h2>Certifications and frameworks</h2><ul>${page.certifications
            .map(
              (item) =>
                `<li><strong>${escapeHtml(item.name)}</strong>${item.date ? ` <span class="muted">${escapeHtml(item.date)}</span>` : ''}${
                  item.document_id ? ` · <a href="${downloadOf(item.document_id)}">Report</a>` : ''
                }</li>`,
            )
            .join('')}</ul></section>`
        : ''
    case 'practices':
      return page.practices.length
        ? `<section><h2>Security practices</h2><ul>${page.practices
            .map(
              (item) =>
                `<li><dl><dt>${escapeHtml(item.question)}</dt><dd>${escapeHtml(item.answer)}</dd></dl></li>`,
            )
            .join('')}</ul></section>`
        : ''
    case 'subprocessors':
      return page.subprocessors.length
        ? `<section><h2>Sub-processors</h2><ul>${page.subprocessors
            .map(
              (item) =>
                `<li><strong>${escapeHtml(item.name)}</strong> <span class="muted">${escapeHtml(item.purpose)} · ${escapeHtml(item.location)}</span></li>`,
            )
            .join('')}</ul></section>`
        : ''
    case 'documents':
      return page.documents.length
        ? `<section><h2>Documents</h2><ul>${page.documents
            .map((file) =>
              file.visibility === 'public'
                ? `<li><a href="${downloadOf(file.id)}">${escapeHtml(file.name)}</a> <span class="muted">${kb(file.size)}</span></li>`
                : visit.reader
                  ? `<li><a href="${downloadOf(file.id)}">${escapeHtml(file.name)}</a><span class="tag">Under NDA: marked with your email</span></li>`
                  : `<li>${escapeHtml(file.name)}<span class="tag">Under NDA: on request</span></li>`,
            )
            .join('')}</ul></section>`
        : ''
    case 'updates':
      return page.updates.length
        ? `<section><h2>Updates</h2><ul>${page.updates
            .map(
              (item) =>
                `<li><strong>${escapeHtml(item.title)}</strong> <span class="muted">${escapeHtml(item.date)}</span>${paragraphs(item.body)}</li>`,
            )
            .join('')}</ul></section>`
        : ''
    case 'contact':
      return page.contact_email
        ? `<section><h2>Contact</h2><p><a href="mailto:${escapeHtml(page.contact_email)}">${escapeHtml(page.contact_email)}</a></p></section>`
        : ''
  }
}

/** The banner above the sections: the link to open, the reader's session, or what went wrong. */
function banner(page: PublicTrustPage, visit: PageVisit) {
  if (visit.error) return `<p class="notice" role="alert">${escapeHtml(visit.error)}</p>`
  if (visit.reader)
    return `<p class="notice">Reading as ${escapeHtml(visit.reader.email)}: documents under NDA download marked with your email address.</p>`
  if (visit.access)
    // a POST of the visitor's own: a mail scanner that fetches the link spends nothing
    return `<form class="notice" method="post" action="/trust/${escapeHtml(page.slug)}/session"><input type="hidden" name="token" value="${escapeHtml(visit.access)}"><p>Your access to the documents under NDA was approved.</p><button type="submit">Open the documents</button></form>`
  return ''
}

/** The whole document of a published page; with the web app's shell, the app mounts on it. */
export function trustPageHtml(
  page: PublicTrustPage,
  downloadOf: (id: number) => string,
  visit: PageVisit = {},
  shell: TrustShell | null = null,
) {
  const name = page.organization.name
  const description =
    page.overview.replace(/\s+/g, ' ').trim().slice(0, 155) ||
    `${name}'s security posture, certifications, sub-processors and documents.`
  const body =
    banner(page, visit) +
    page.sections.map((kind) => section(page, kind, downloadOf, visit)).join('')
  const logo = page.organization.logo
    ? `<img class="logo" src="${API_PREFIX}${paths.publicTrust.logo(page.slug)}" alt="${escapeHtml(name)} logo">`
    : ''
  const content = `<div class="tp"><main><header>${logo}<h1>${escapeHtml(name)} Trust Center</h1><p class="muted">How ${escapeHtml(name)} protects its customers' data.</p></header>
${body || '<p class="muted">Nothing is published here yet.</p>'}
</main></div>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(name)} Trust Center</title>
<meta name="description" content="${escapeHtml(description)}">
<meta property="og:title" content="${escapeHtml(name)} Trust Center">
<meta property="og:description" content="${escapeHtml(description)}">
<style>${CSS}</style>${shell ? shell.head : ''}</head>
<body>${shell ? `<div id="root">${content}</div>` : content}</body></html>`
}

/** What an unknown slug, an unpublished page or a removed one shows: the same for all. */
export function trustNotFoundHtml() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Not available</title><style>${CSS}</style></head>
<body><div class="tp"><main><h1>Not available</h1><p>${escapeHtml(TRUST_TEXTS.notFound)}</p></main></div></body></html>`
}
