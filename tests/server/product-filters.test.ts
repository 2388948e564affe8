import { describe, expect, it } from 'vitest'
import { paths } from '../../contract/paths.ts'
import { type Body, member, questionnaire, uploadFile } from './answering/helpers.ts'
import { get, post } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * The repository and the library's Q&A list narrowed by product (issue 38): `product` is a
 * product's id, or `none` for what speaks for all products; anything else is a 400 in plain words,
 * and another organisation's product matches nothing of ours.
 */

const ctx = withTestApp({ jobs: true })

describe('lists by product (issue 38)', () => {
  it('narrows the repository and the Q&A list to one product, or to company-wide entries', async () => {
    const approver = await member(ctx)
    const catalog = (await post(ctx, paths.products.list, { name: 'Catalog' }, approver.token)).body
    const studio = (await post(ctx, paths.products.list, { name: 'Studio' }, approver.token)).body
    const catalogFile = await uploadFile(ctx, approver.token, 'catalog.txt', 'Catalog notes.')
    const studioFile = await uploadFile(ctx, approver.token, 'studio.txt', 'Studio notes.')
    await uploadFile(ctx, approver.token, 'policy.txt', 'Our security policy.')
    await post(
      ctx,
      paths.products.assign,
      { product_id: catalog.id, file_ids: [catalogFile] },
      approver.token,
    )
    await post(
      ctx,
      paths.products.assign,
      { product_id: studio.id, file_ids: [studioFile] },
      approver.token,
    )
    const files = async (product: string) => {
      const res = await get(ctx, `${paths.files.list}?product=${product}`, approver.token)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return (res.body.results as Body[]).map((file) => file.name).sort()
    }
    expect(await files(String(catalog.id))).toEqual(['catalog.txt'])
    expect(await files(String(studio.id))).toEqual(['studio.txt'])
    expect(await files('none')).toEqual(['policy.txt'])

    for (const [question, productId] of [
      ['Does Catalog encrypt?', catalog.id],
      ['Does Studio encrypt?', studio.id],
      ['Do you train staff?', null],
    ] as const)
      expect(
        (
          await post(
            ctx,
            paths.knowledgeBase.qa,
            { question, answer: 'Yes.', product_id: productId },
            approver.token,
          )
        ).status,
      ).toBe(201)
    const qa = async (product: string) => {
      const res = await get(ctx, `${paths.knowledgeBase.qa}?product=${product}`, approver.token)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return {
        count: res.body.count,
        questions: (res.body.results as Body[]).map((i) => i.question),
      }
    }
    expect(await qa(String(studio.id))).toEqual({ count: 1, questions: ['Does Studio encrypt?'] })
    expect(await qa('none')).toEqual({ count: 1, questions: ['Do you train staff?'] })

    // not a product: refused in plain words; another organisation's product matches nothing
    expect((await get(ctx, `${paths.files.list}?product=abc`, approver.token)).status).toBe(400)
    expect((await get(ctx, `${paths.knowledgeBase.qa}?product=0`, approver.token)).status).toBe(400)
    const stranger = await member(ctx)
    expect(
      (await get(ctx, `${paths.files.list}?product=${catalog.id}`, stranger.token)).body.results,
    ).toEqual([])
  })

  it('narrows the questionnaires to one product, or to those answered for all products', async () => {
    const approver = await member(ctx)
    const catalog = (await post(ctx, paths.products.list, { name: 'Catalog' }, approver.token)).body
    const forCatalog = await questionnaire(ctx, approver.token, ['Do you encrypt backups?'])
    const companyWide = await questionnaire(ctx, approver.token, ['Do you train staff?'])
    await post(
      ctx,
      paths.products.assign,
      { product_id: catalog.id, questionnaire_ids: [forCatalog.id] },
      approver.token,
    )
    const ids = async (product: string) => {
      const res = await get(ctx, `${paths.questionnaires.list}?product=${product}`, approver.token)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return (res.body.results as Body[]).map((q) => q.id)
    }
    expect(await ids(String(catalog.id))).toEqual([forCatalog.id])
    expect(await ids('none')).toEqual([companyWide.id])
    expect((await get(ctx, `${paths.questionnaires.list}?product=x`, approver.token)).status).toBe(
      400,
    )
  })
})
