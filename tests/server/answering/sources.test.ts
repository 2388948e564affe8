import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { makePdf } from '../../fixtures/documents.ts'
import { call, get, post } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import { type Body, member, questionnaire, rowsOf, settle, uploadFile } from './helpers.ts'

const Q = paths.questionnaires
const ctx = withTestApp({ jobs: true })

const ENCRYPTION = 'All customer data is encrypted at rest with AES-256 on every storage volume.'
const RECOVERY =
  'The disaster recovery plan is tested twice a year with a full failover to a second region.'
/** The policy's first version, and its second where one quoted sentence changed. */
const policy = (encryption: string) =>
  makePdf([
    ['Encryption', encryption],
    ['Business continuity', RECOVERY],
  ])

const quotes = (answer: Body, fileId: number) =>
  answer.citations.some((citation: Body) => citation.source === 'file' && citation.id === fileId)

describe('answers whose documents change (issue 28)', () => {
  it('a new version without a quoted sentence flags every answer quoting it, with both passages, until someone confirms', async () => {
    const user = await member(ctx)
    const fileId = await uploadFile(
      ctx,
      user.token,
      'Security Policy.pdf',
      await policy(ENCRYPTION),
    )
    const q = await questionnaire(ctx, user.token, [
      'Is customer data encrypted at rest?',
      'Is the disaster recovery plan tested with a failover?',
    ])
    expect((await post(ctx, Q.generate(q.id), {}, user.token)).status).toBe(202)
    await settle(ctx, user.token, q.id)
    const [encrypted, recovery] = (await rowsOf(ctx, user.token, q.id)).map(
      (row: Body) => row.answer,
    )
    expect(quotes(encrypted, fileId), JSON.stringify(encrypted)).toBe(true)
    expect(quotes(recovery, fileId), JSON.stringify(recovery)).toBe(true)
    expect(encrypted.flags).toEqual([])
    // the recovery answer is approved: approved answers are checked as drafts are
    expect((await post(ctx, Q.answer.approve(recovery.id), {}, user.token)).status).toBe(200)

    // the same name again: version 2, where the encryption sentence changed and recovery stayed
    const again = await uploadFile(
      ctx,
      user.token,
      'Security Policy.pdf',
      await policy('Customer data at rest is encrypted only where the customer enables it.'),
    )
    expect(again).toBe(fileId)
    const [changed, kept] = (await rowsOf(ctx, user.token, q.id)).map((row: Body) => row.answer)
    expect(changed.flags).toEqual(['source_changed'])
    expect(changed.source_change).toMatchObject({ file_id: fileId, version: 2 })
    expect(changed.source_change.before).toContain('AES-256')
    // the closest sentence now, without the section heading above it
    expect(changed.source_change.after).toBe(
      'Customer data at rest is encrypted only where the customer enables it.',
    )
    expect(changed.band).not.toBe('high')
    expect(kept.flags).toEqual([])
    expect(kept.status).toBe('approved')

    // another organisation cannot touch it; a person who checked it clears the flag
    const stranger = await member(ctx)
    expect((await post(ctx, Q.answer.confirmSource(changed.id), {}, stranger.token)).status).toBe(
      404,
    )
    const confirmed = await post(ctx, Q.answer.confirmSource(changed.id), {}, user.token)
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body.questions[0].answer.flags).toEqual([])
    expect(confirmed.body.operation).toBeNull()
    expect(confirmed.body.questions[0].answer.source_change).toBeUndefined()

    // deleting the document flags the answers still quoting it, with nothing left to show
    const removed = await call(ctx, 'DELETE', paths.files.delete(fileId), { token: user.token })
    expect(removed.status).toBe(200)
    const afterDelete = (await rowsOf(ctx, user.token, q.id)).map((row: Body) => row.answer)
    for (const answer of afterDelete) {
      expect(answer.flags).toEqual(['source_changed'])
      expect(answer.source_change).toMatchObject({ file_id: fileId, version: null, after: null })
    }
    // an edit is a person's decision: the flag goes with it
    const edited = await post(
      ctx,
      Q.answer.edit(afterDelete[0].id),
      { text: 'Encrypted where the customer enables it.', choice: 'Yes' },
      user.token,
    )
    expect(edited.status).toBe(200)
    const final = (await get(ctx, Q.answers(q.id), user.token)).body.questions[0].answer
    expect(final.flags).toEqual([])
  })
})
