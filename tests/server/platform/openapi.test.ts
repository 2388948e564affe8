import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../../contract/openapi/index.ts'
import { apiRoutes } from '../../../server/modules/platform/openapi.ts'
import { operationOf } from '../../support/openapi-check.ts'
import { get } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * The OpenAPI document (issue 41): generated from the routes the server holds and the contract's
 * schemas; every route described, no description of a route that is gone, and the interactive
 * reference served from the installed package. (Every JSON answer of the server suite is checked
 * against it in tests/support/openapi-check.ts.)
 */
const ctx = withTestApp()

describe('the OpenAPI document (issue 41)', () => {
  it('describes every route the server holds, and nothing else', async () => {
    const routes = apiRoutes(ctx.app.routes)
    expect(routes.length).toBeGreaterThan(100)
    const undescribed = routes.filter((route) => !OPERATIONS[route.key]).map((route) => route.key)
    expect(undescribed, 'routes without a description in contract/openapi/').toEqual([])
    const held = new Set(routes.map((route) => route.key))
    const gone = Object.keys(OPERATIONS).filter((key) => !held.has(key))
    expect(gone, 'descriptions of routes the server does not hold').toEqual([])
  })

  it('is served as OpenAPI 3.1 with its security, tags and schemas', async () => {
    const res = await get(ctx, '/openapi.json')
    expect(res.status).toBe(200)
    const doc = res.body
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    const made = doc.paths['/admin/api-keys/'].post
    expect(made.requestBody.content['application/json'].schema.properties.scopes).toBeTruthy()
    expect(made.responses['201'].content['application/json'].schema.properties.key).toBeTruthy()
    expect(made['x-api-key']).toBe(false)
    // a call a key may make says so; a public one asks no security
    const files = doc.paths['/files/']?.get
    expect(files?.['x-api-key']).toBe(true)
    const publicPage = doc.paths['/public/trust/{slug}/']?.get
    expect(publicPage?.security).toEqual([])
    expect(JSON.stringify(doc)).not.toContain('Not yet described')
  })

  it('matches concrete paths to their operations', () => {
    expect(operationOf('GET', '/files/12/')?.summary).toBe(OPERATIONS['GET /files/{id}/']?.summary)
    expect(operationOf('POST', '/admin/api-keys/')?.status).toBe(201)
  })

  it('serves the interactive reference from the installed package', async () => {
    const page = await ctx.app.request('/api/docs')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('/api/docs/assets/swagger-ui-bundle.js')
    expect(html).not.toMatch(/<script>(?!<)/)
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'start.js']) {
      const res = await ctx.app.request(`/api/docs/assets/${asset}`)
      expect(res.status, asset).toBe(200)
    }
    expect((await ctx.app.request('/api/docs/assets/package.json')).status).toBe(404)
  })
})
