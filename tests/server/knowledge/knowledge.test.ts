import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import type { Role } from '../../../contract/roles.ts'
import { makeCsv, makeXlsx } from '../../fixtures/documents.ts'
import { call, fileOf, get, insertUser, post, postForm, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any

const ctx = withTestApp()

async function member(role: Role = 'approver') {
  const fixture = await insertUser(ctx.database, { role })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

const multipart = (
  token: string,
  path: string,
  file: { name: string; data: Buffer },
  mapping?: unknown,
) =>
  postForm(ctx, path, token, {
    file: fileOf(file.name, file.data),
    mapping: mapping === undefined ? undefined : JSON.stringify(mapping),
  })

describe('knowledge base items', () => {
  it("filters both item lists by tag and keeps them to the caller's organisation", async () => {
    const user = await member()
    const stranger = await member()
    await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Q1?', answer: 'A.', tags: ['SOC 2'] },
      user.token,
    )
    await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Q2?', answer: 'B.', tags: ['ISO'] },
      user.token,
    )
    const fact = await post(
      ctx,
      paths.knowledgeBase.data,
      { title: 'Auditor', value: 'A firm', tags: ['SOC 2'] },
      user.token,
    )
    await post(ctx, paths.knowledgeBase.data, { title: 'Other', value: 'x', tags: [] }, user.token)
    const qa = await get(
      ctx,
      `${paths.knowledgeBase.qa}?tag=${encodeURIComponent('soc 2')}`,
      user.token,
    )
    expect(qa.body.count).toBe(1)
    expect(qa.body.results[0].question).toBe('Q1?')
    const data = await get(
      ctx,
      `${paths.knowledgeBase.data}?tag=${encodeURIComponent('SOC 2')}`,
      user.token,
    )
    expect(data.body.results.map((item: Body) => item.id)).toEqual([fact.body.id])
    // another organisation sees none of it, and cannot read or delete it
    expect((await get(ctx, paths.knowledgeBase.data, stranger.token)).body.count).toBe(0)
    expect(
      (await get(ctx, paths.knowledgeBase.dataItem(fact.body.id), stranger.token)).status,
    ).toBe(404)
    const denied = await call(ctx, 'DELETE', paths.knowledgeBase.deleteData(fact.body.id), {
      token: stranger.token,
    })
    expect(denied.status).toBe(404)
    expect((await get(ctx, paths.knowledgeBase.dataItem(fact.body.id), user.token)).status).toBe(
      200,
    )
  })

  it('creates, lists, edits, searches and deletes Q&A and data items', async () => {
    const user = await member()
    const created = await post(
      ctx,
      paths.knowledgeBase.qa,
      {
        question: 'Do you encrypt data at rest?',
        answer: 'Yes, with AES-256 via the cloud KMS.',
        dropdown_value: 'Yes',
        tags: ['Encryption', 'encryption'],
      },
      user.token,
    )
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      question: 'Do you encrypt data at rest?',
      dropdown_value: 'Yes',
      tags: ['Encryption'],
    })
    const edited = await call(ctx, 'PATCH', paths.knowledgeBase.qaItem(created.body.id), {
      token: user.token,
      body: { answer: 'Yes. AES-256, keys rotated yearly.' },
    })
    expect(edited.body.answer).toBe('Yes. AES-256, keys rotated yearly.')
    const data = await post(
      ctx,
      paths.knowledgeBase.data,
      { title: 'Data-centre regions', value: 'Frankfurt and Dublin' },
      user.token,
    )
    expect(data.status).toBe(201)
    expect((await get(ctx, `${paths.knowledgeBase.qa}?q=encrypt`, user.token)).body.count).toBe(1)
    expect((await get(ctx, `${paths.knowledgeBase.data}?q=dublin`, user.token)).body.count).toBe(1)
    const search = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=${encodeURIComponent('encryption at rest')}`,
      user.token,
    )
    expect(search.body.results[0]).toMatchObject({ kind: 'qa', item_id: created.body.id })
    // a typo still finds the question by trigram similarity
    const typo = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=${encodeURIComponent('Do you encrpyt data at rest')}&source=qa`,
      user.token,
    )
    expect(typo.body.results[0]?.item_id).toBe(created.body.id)
    const region = await get(ctx, `${paths.knowledgeBase.search}?q=regions&source=data`, user.token)
    expect(region.body.results[0]).toMatchObject({ kind: 'data', item_id: data.body.id })
    expect(
      (
        await call(ctx, 'DELETE', paths.knowledgeBase.deleteQa(created.body.id), {
          token: user.token,
        })
      ).body,
    ).toEqual({ deleted: 1 })
    expect(
      (
        await call(ctx, 'DELETE', paths.knowledgeBase.deleteData(data.body.id), {
          token: user.token,
        })
      ).status,
    ).toBe(200)
    expect((await get(ctx, paths.knowledgeBase.qaItem(created.body.id), user.token)).status).toBe(
      404,
    )
    // searches are kept by the state of the knowledge (issue 14, LD1): a deleted item is gone at
    // once, an edit shows at once, and an unchanged search answers 304 to its ETag
    const again = await get(
      ctx,
      `${paths.knowledgeBase.search}?q=${encodeURIComponent('encryption at rest')}`,
      user.token,
    )
    expect(again.body.results).toEqual([])
    const added = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Is data encrypted at rest?', answer: 'Yes, always.' },
      user.token,
    )
    const url = `${paths.knowledgeBase.search}?q=${encodeURIComponent('encryption at rest')}`
    const found = await get(ctx, url, user.token)
    expect(found.body.results[0]).toMatchObject({ kind: 'qa', item_id: added.body.id })
    await call(ctx, 'PATCH', paths.knowledgeBase.qaItem(added.body.id), {
      token: user.token,
      body: { answer: 'Yes, with keys rotated every year.' },
    })
    const changed = await get(ctx, url, user.token)
    expect(changed.body.results[0].text).toContain('keys rotated every year')
    const etag = changed.headers.get('etag') as string
    const unchanged = await call(ctx, 'GET', url, {
      token: user.token,
      headers: { 'if-none-match': etag },
    })
    expect(unchanged.status).toBe(304)
  })

  it('pages Q&A and data items newest first, each page with the whole count', async () => {
    const user = await member()
    for (const n of [1, 2, 3]) {
      const qa = { question: `Question ${n}`, answer: `Answer ${n}.` }
      expect((await post(ctx, paths.knowledgeBase.qa, qa, user.token)).status).toBe(201)
      const data = { title: `Fact ${n}`, value: `Value ${n}` }
      expect((await post(ctx, paths.knowledgeBase.data, data, user.token)).status).toBe(201)
    }
    for (const [path, field, prefix] of [
      [paths.knowledgeBase.qa, 'question', 'Question'],
      [paths.knowledgeBase.data, 'title', 'Fact'],
    ] as const) {
      const pages = []
      for (const page of [1, 2, 3]) {
        const res = await get(ctx, `${path}?page=${page}&page_size=2`, user.token)
        expect(res.status).toBe(200)
        expect(res.body.count).toBe(3)
        pages.push(res.body.results.map((item: Body) => item[field]))
      }
      expect(pages).toEqual([[`${prefix} 3`, `${prefix} 2`], [`${prefix} 1`], []])
    }
  })

  it('refuses bad input with plain words', async () => {
    const user = await member()
    const res = await post(ctx, paths.knowledgeBase.qa, { question: ' ', answer: 'x' }, user.token)
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('question: Enter a question')
    const search = await get(ctx, `${paths.knowledgeBase.search}?q=`, user.token)
    expect(search.status).toBe(400)
    expect(search.body.error).toBe('Enter something to search for')
  })

  it('snippets are HTML-escaped apart from their marks', async () => {
    const user = await member()
    await post(
      ctx,
      paths.knowledgeBase.data,
      {
        title: 'Banner',
        value: 'The login page shows <script>alert(1)</script> nothing else about banners',
      },
      user.token,
    )
    const res = await get(ctx, `${paths.knowledgeBase.search}?q=banners`, user.token)
    expect(res.body.results[0].snippet).toContain('&lt;script&gt;')
    expect(res.body.results[0].snippet).not.toContain('<script>')
    expect(res.body.results[0].snippet).toMatch(/<mark>[Bb]anners?<\/mark>/)
  })

  it('previews and imports Q&A from XLSX and CSV, updating instead of duplicating', async () => {
    const user = await member()
    const xlsx = await makeXlsx([
      { question: 'Is MFA enforced?', answer: 'Yes', comment: 'For all staff' },
      { question: 'Do you have a DPO?', answer: 'No', comment: 'Not required' },
    ])
    const preview = await multipart(user.token, paths.knowledgeBase.importPreview, {
      name: 'answers.xlsx',
      data: xlsx,
    })
    expect(preview.status, JSON.stringify(preview.body)).toBe(200)
    const sheet = preview.body.sheets[0]
    expect(sheet).toMatchObject({
      name: 'Questions',
      header_row: 2,
      suggested: { question: 'B', answer: 'D', dropdown: 'C' },
    })
    expect(sheet.sample[1].cells.B).toBe('Is MFA enforced?')
    const mapping = {
      sheet: 'Questions',
      header_row: 2,
      question: 'B',
      answer: 'D',
      dropdown: 'C',
      tags: ['CAIQ'],
    }
    const first = await multipart(
      user.token,
      paths.knowledgeBase.import,
      { name: 'answers.xlsx', data: xlsx },
      mapping,
    )
    expect(first.body).toEqual({ created: 2, updated: 0, skipped: 2 })
    const again = await multipart(
      user.token,
      paths.knowledgeBase.import,
      { name: 'answers.xlsx', data: xlsx },
      mapping,
    )
    expect(again.body).toMatchObject({ created: 0, updated: 2 })
    const items = await get(ctx, paths.knowledgeBase.qa, user.token)
    expect(items.body.count).toBe(2)
    expect(items.body.results.find((i: Body) => i.question === 'Is MFA enforced?')).toMatchObject({
      answer: 'For all staff',
      dropdown_value: 'Yes',
      tags: ['CAIQ'],
      source: 'answers.xlsx',
    })
    const csv = await multipart(
      user.token,
      paths.knowledgeBase.import,
      { name: 'more.csv', data: makeCsv([{ question: 'Backups?', answer: 'Daily' }]) },
      { sheet: 'more', header_row: 1, question: 'A', answer: 'B' },
    )
    expect(csv.body).toMatchObject({ created: 1 })
    const pdf = await multipart(user.token, paths.knowledgeBase.importPreview, {
      name: 'x.pdf',
      data: Buffer.from('%PDF-1.4\n%%EOF'),
    })
    expect(pdf.status).toBe(415)
    expect(pdf.body.error).toBe('Import needs a CSV or Excel (.xlsx) file')
  })

  it('TI2: another organisation’s items are 404 and invisible', async () => {
    const owner = await member()
    const item = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Quokka canary question?', answer: 'Zanzibar' },
      owner.token,
    )
    const stranger = await member('admin')
    expect((await get(ctx, paths.knowledgeBase.qaItem(item.body.id), stranger.token)).status).toBe(
      404,
    )
    expect(
      (
        await call(ctx, 'PATCH', paths.knowledgeBase.qaItem(item.body.id), {
          token: stranger.token,
          body: { answer: 'x' },
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await call(ctx, 'DELETE', paths.knowledgeBase.deleteQa(item.body.id), {
          token: stranger.token,
        })
      ).status,
    ).toBe(404)
    expect((await get(ctx, paths.knowledgeBase.qa, stranger.token)).body.count).toBe(0)
    expect(
      (await get(ctx, `${paths.knowledgeBase.search}?q=quokka`, stranger.token)).body.results,
    ).toEqual([])
  })
})
