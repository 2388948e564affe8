import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Hono } from 'hono'
import { API_PREFIX } from '../../../contract/paths.ts'

/**
 * /api/docs (issue 41): the interactive reference of /api/v1/openapi.json, Swagger UI served from
 * the installed package (nothing from another site), its start in a file of its own (no inline
 * script under the app's policy).
 */

const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${API_PREFIX}/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    persistAuthorization: false,
    tryItOutEnabled: false,
  })
})
`

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Quire API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head><body><div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/start.js"></script>
</body></html>`

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

export function docsRoutes() {
  const app = new Hono()
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  const assets = new Map<string, { body: string | Buffer; type: string }>([
    ['start.js', { body: START, type: TYPES['.js'] as string }],
  ])
  const asset = (name: string) => {
    if (!assets.has(name) && ['swagger-ui.css', 'swagger-ui-bundle.js'].includes(name))
      assets.set(name, {
        body: readFileSync(path.join(dir, name)),
        type: TYPES[path.extname(name)] as string,
      })
    return assets.get(name)
  }
  app.get('/api/docs', (c) => c.html(PAGE))
  app.get('/api/docs/', (c) => c.redirect('/api/docs', 301))
  app.get('/api/docs/assets/:name', (c) => {
    const found = asset(c.req.param('name'))
    if (!found) return c.text('Not found', 404)
    c.header('Content-Type', found.type)
    c.header('Cache-Control', 'public, max-age=86400')
    return c.body(typeof found.body === 'string' ? found.body : new Uint8Array(found.body))
  })
  return app
}
