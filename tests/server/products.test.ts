import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { PRODUCT_TEXTS } from '../../contract/products.ts'
import { type Body, member, uploadFile } from './answering/helpers.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * Products (issue 38): an organisation's products, and which product each repository file,
 * library answer and questionnaire speaks for (none: the whole company). Read by every role,
 * curated by those who manage the library, set by whoever may upload; another organisation's
 * product is not found, and a refused call writes nothing.
 */

const P = paths.products
const ctx = withTestApp({ jobs: true })

const upload = async (token: string, path: string, name: string, body: string, fields = {}) => {
  const form = new FormData()
  form.append('file', new Blob([body]), name)
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value))
  const res = await ctx.app.request(apiPath(path), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: res.status, body: (await res.json()) as Body }
}

describe('products (issue 38)', () => {
  it('are added, listed with what speaks for each, renamed and deleted by those who manage the library', async () => {
    const approver = await member(ctx)
    const viewer = await insertUser(ctx.database, { role: 'viewer', orgId: approver.orgId })
    const viewerToken = (await signIn(ctx, viewer.email)).access
    const created = await post(
      ctx,
      P.list,
      {
        name: '  Canvas Studio ',
        aliases: ['Studio', 'studio', 'Canvas Studio', 'Arc'],
        description: 'Video platform',
      },
      approver.token,
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Canvas Studio',
      aliases: ['Studio', 'Arc'],
      description: 'Video platform',
      files: 0,
      qa_items: 0,
      questionnaires: 0,
    })
    // one name once, ignoring case
    const twice = await post(ctx, P.list, { name: 'canvas studio' }, approver.token)
    expect(twice.status).toBe(409)
    expect(twice.body.error).toBe(PRODUCT_TEXTS.exists)
    expect((await post(ctx, P.list, { name: '   ' }, approver.token)).status).toBe(400)
    // a viewer reads them, and may not add one
    expect((await post(ctx, P.list, { name: 'Catalog' }, viewerToken)).status).toBe(403)
    const listed = await get(ctx, P.list, viewerToken)
    expect(listed.status).toBe(200)
    expect(listed.body.results.map((p: Body) => p.name)).toEqual(['Canvas Studio'])

    const id = created.body.id as number
    const renamed = await call(ctx, 'PATCH', P.item(id), {
      token: approver.token,
      body: { name: 'Studio Pro' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({
      name: 'Studio Pro',
      aliases: ['Studio', 'Arc'],
      description: 'Video platform',
    })

    // another organisation's product is not found, to read, change or delete
    const stranger = await member(ctx)
    expect((await get(ctx, P.item(id), stranger.token)).status).toBe(404)
    expect(
      (await call(ctx, 'PATCH', P.item(id), { token: stranger.token, body: { name: 'X' } })).status,
    ).toBe(404)
    expect((await call(ctx, 'DELETE', P.item(id), { token: stranger.token })).status).toBe(404)
    expect((await get(ctx, P.list, stranger.token)).body.results).toEqual([])

    expect((await call(ctx, 'DELETE', P.item(id), { token: approver.token })).status).toBe(200)
    expect((await get(ctx, P.item(id), approver.token)).status).toBe(404)
  })

  it('is set on files, library answers and questionnaires at upload, at creation and afterwards; deleting it makes them company-wide', async () => {
    const approver = await member(ctx)
    const product = (await post(ctx, P.list, { name: 'Catalog' }, approver.token)).body
    const other = (await post(ctx, P.list, { name: 'Studio' }, approver.token)).body

    // at upload
    const file = await upload(approver.token, paths.files.upload, 'catalog.txt', 'Catalog notes.', {
      product_id: product.id,
    })
    expect(file.status, JSON.stringify(file.body)).toBe(201)
    expect(file.body.files[0].product_id).toBe(product.id)
    const q = await upload(
      approver.token,
      paths.questionnaires.upload,
      'q.csv',
      'ID,Question\n1,Do you encrypt?',
      {
        product_id: other.id,
      },
    )
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body.product_id).toBe(other.id)
    // a bad field is refused in plain words, and nothing is added
    const bad = await upload(approver.token, paths.files.upload, 'bad.txt', 'x', {
      product_id: 'abc',
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe(PRODUCT_TEXTS.invalid)
    const names = (
      await get(ctx, `${paths.files.list}?page_size=100`, approver.token)
    ).body.results.map((f: Body) => f.name)
    expect(names).not.toContain('bad.txt')

    // a library answer, at creation and when edited
    const qa = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you encrypt backups?', answer: 'Yes.', product_id: product.id },
      approver.token,
    )
    expect(qa.status, JSON.stringify(qa.body)).toBe(201)
    expect(qa.body.product_id).toBe(product.id)
    const cleared = await call(ctx, 'PATCH', paths.knowledgeBase.qaItem(qa.body.id), {
      token: approver.token,
      body: { product_id: null },
    })
    expect(cleared.body.product_id).toBeNull()

    // several at once
    const plain = await uploadFile(ctx, approver.token, 'policy.txt', 'We back up nightly.')
    const assigned = await post(
      ctx,
      P.assign,
      {
        product_id: product.id,
        file_ids: [plain],
        qa_item_ids: [qa.body.id],
        questionnaire_ids: [q.body.id],
      },
      approver.token,
    )
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
    expect(assigned.body).toEqual({ files: 1, qa_items: 1, questionnaires: 1 })
    const counted = (await get(ctx, P.item(product.id), approver.token)).body
    expect(counted).toMatchObject({ files: 2, qa_items: 1, questionnaires: 1 })

    // deleting the product: what spoke for it speaks for the whole company
    await call(ctx, 'DELETE', P.item(product.id), { token: approver.token })
    expect((await get(ctx, paths.files.get(plain), approver.token)).body.product_id).toBeNull()
    expect(
      (await get(ctx, paths.questionnaires.get(q.body.id), approver.token)).body.product_id,
    ).toBeNull()
    expect(
      (await get(ctx, paths.knowledgeBase.qaItem(qa.body.id), approver.token)).body.product_id,
    ).toBeNull()
  })

  it('never reaches another organisation: its product or its files are not found, and nothing is written', async () => {
    const approver = await member(ctx)
    const stranger = await member(ctx)
    const theirs = (await post(ctx, P.list, { name: 'Theirs' }, stranger.token)).body
    const mine = (await post(ctx, P.list, { name: 'Mine' }, approver.token)).body
    const file = await uploadFile(ctx, approver.token, 'notes.txt', 'Our notes.')
    const theirFile = await uploadFile(ctx, stranger.token, 'their notes.txt', 'Their notes.')

    // another organisation's product, at upload, on an answer, or assigned
    const viaUpload = await upload(approver.token, paths.files.upload, 'x.txt', 'x', {
      product_id: theirs.id,
    })
    expect(viaUpload.status).toBe(404)
    const viaQa = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Q?', answer: 'A.', product_id: theirs.id },
      approver.token,
    )
    expect(viaQa.status).toBe(404)
    expect(
      (await post(ctx, P.assign, { product_id: theirs.id, file_ids: [file] }, approver.token))
        .status,
    ).toBe(404)
    // another organisation's file among mine: all or nothing
    const mixed = await post(
      ctx,
      P.assign,
      { product_id: mine.id, file_ids: [file, theirFile] },
      approver.token,
    )
    expect(mixed.status).toBe(404)
    expect((await get(ctx, paths.files.get(file), approver.token)).body.product_id).toBeNull()
    expect((await get(ctx, paths.files.get(theirFile), stranger.token)).body.product_id).toBeNull()
    // nothing to assign is a plain-words 400
    const empty = await post(ctx, P.assign, { product_id: mine.id }, approver.token)
    expect(empty.status).toBe(400)
    // a contributor may set products; a viewer may not
    const contributor = await insertUser(ctx.database, {
      role: 'contributor',
      orgId: approver.orgId,
    })
    const token = (await signIn(ctx, contributor.email)).access
    expect(
      (await post(ctx, P.assign, { product_id: mine.id, file_ids: [file] }, token)).status,
    ).toBe(200)
    // the audit log names the product
    const admin = await insertUser(ctx.database, { role: 'admin', orgId: approver.orgId })
    const log = await get(ctx, paths.account.auditLog, (await signIn(ctx, admin.email)).access)
    const actions = (log.body.results as Body[]).map((entry) => entry.action)
    expect(actions).toEqual(expect.arrayContaining(['product.created', 'product.assigned']))
  })

  it('is guessed for a new file or questionnaire nobody gave one: from its own product field, else its name; two or none named, left company-wide', async () => {
    const approver = await member(ctx)
    const studio = (
      await post(ctx, P.list, { name: 'Canvas Studio', aliases: ['Studio'] }, approver.token)
    ).body
    const catalog = (await post(ctx, P.list, { name: 'Canvas Catalog' }, approver.token)).body
    const productOfFile = async (name: string, body: string, fields = {}) => {
      const res = await upload(approver.token, paths.files.upload, name, body, fields)
      expect(res.status).toBe(201)
      const id = res.body.files[0].id as number
      for (let i = 0; i < 200; i++) {
        const file = await get(ctx, paths.files.get(id), approver.token)
        if (file.body.status === 'ready') return file.body.product_id as number | null
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error('file never ready')
    }
    // its name names one product (by an alias, across punctuation)
    expect(await productOfFile('studio-security-notes.txt', 'We encrypt backups.')).toBe(studio.id)
    // a completed questionnaire's own product field speaks first
    expect(
      await productOfFile(
        'hecvat-2024.csv',
        'Question,Answer\nProduct Name,Canvas Catalog\nDo you encrypt backups?,Yes',
      ),
    ).toBe(catalog.id)
    // a name that is only part of a product's, or two products: nobody's guess
    expect(await productOfFile('Canvas policy.txt', 'Policies apply to everyone.')).toBeNull()
    expect(await productOfFile('Canvas Studio and Canvas Catalog.txt', 'Both.')).toBeNull()
    // one said at upload is kept
    expect(await productOfFile('studio-more.txt', 'More notes.', { product_id: catalog.id })).toBe(
      catalog.id,
    )
    // a questionnaire by its file name
    const q = await upload(
      approver.token,
      paths.questionnaires.upload,
      'Canvas_Catalog_HECVAT_Lite.csv',
      'ID,Question\n1,Do you encrypt backups?',
    )
    for (let i = 0; i < 200; i++) {
      const current = await get(ctx, paths.questionnaires.get(q.body.id), approver.token)
      if (current.body.status === 'ready') {
        expect(current.body.product_id).toBe(catalog.id)
        return
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error('questionnaire never analysed')
  })
})
