import { createServer } from 'node:http'

/**
 * A small web site on loopback for the add-by-URL journey: one article page with navigation and
 * footer noise around its main content. URL_FETCH_ALLOW names exactly this host and port.
 */
export const SITE_PAGE_PATH = '/security/overview.html'
export const SITE_PAGE_TITLE = 'Northwind Security Overview'
export const SITE_PAGE_SENTENCE =
  'Northwind rotates every production encryption key at least once every ninety days.'

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${SITE_PAGE_TITLE}</title></head>
<body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/careers">Careers</a></nav>
<main>
<h1>${SITE_PAGE_TITLE}</h1>
<h2>Encryption</h2>
<p>All customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or later.
${SITE_PAGE_SENTENCE}</p>
<h2>Access control</h2>
<p>Staff reach production only through single sign-on with phishing-resistant multi-factor
authentication, and access is reviewed every quarter.</p>
</main>
<footer>Copyright Northwind. Cookie settings. Newsletter sign-up.</footer>
</body>
</html>`

export function startSite(port: number) {
  const server = createServer((request, response) => {
    if (request.url === SITE_PAGE_PATH) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(PAGE)
      return
    }
    response.writeHead(404, { 'content-type': 'text/plain' })
    response.end('not found')
  })
  return new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
}
