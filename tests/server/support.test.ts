import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { errorSchema } from '../../contract/errors.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import {
  ATTACHMENT_MAX_BYTES,
  SUPPORT_TEXTS,
  TICKETS_PER_USER_PER_HOUR,
  ticketResponseSchema,
} from '../../contract/support.ts'
import { supportTicketAttachments, supportTickets } from '../../server/db/schema.ts'
import { TICKET_BODY_LIMIT } from '../../server/modules/support/routes.ts'
import { streamedBody } from '../support/streams.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

const PATH = paths.support.createTask
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const PDF = Buffer.from('%PDF-1.7\n%fake\n', 'latin1')
const b64 = (data: Buffer) => data.toString('base64')

const ticket = (extra: Record<string, unknown> = {}) => ({
  type: 'Bug',
  summary: 'Export fails',
  description: 'The export button does nothing',
  steps: '1. Click export',
  priority: 'High',
  browser_info: 'Firefox 140',
  url: 'http://quire.test:3000/repository',
  custom_fields: [{ id: 'source', value: 'Web App' }],
  ...extra,
})

describe('support tickets', () => {
  const ctx = withTestApp()

  /** The tickets stored for an organisation (nothing may be stored by a refused call). */
  const ticketsOf = (orgId: number) =>
    ctx.database.db.select().from(supportTickets).where(eq(supportTickets.orgId, orgId))

  async function member(orgId?: number) {
    const fixture = await insertUser(ctx.database, { role: 'approver', orgId })
    const session = await signIn(ctx, fixture.email)
    return { ...fixture, token: session.access }
  }

  const ticketRows = (id: number) =>
    ctx.database.db.select().from(supportTickets).where(eq(supportTickets.id, id))
  const attachmentRows = (ticketId: number) =>
    ctx.database.db
      .select()
      .from(supportTicketAttachments)
      .where(eq(supportTicketAttachments.ticketId, ticketId))
      .orderBy(supportTicketAttachments.id)

  it('stores the ticket and its attachments for the caller, and answers 201', async () => {
    const user = await member()
    const text = Buffer.from('line one\nline two ✓\n', 'utf8')
    const res = await post(
      ctx,
      PATH,
      ticket({
        attachments: [
          { filename: 'screen.png', data: `data:image/png;base64,${b64(PNG)}` },
          { filename: 'report.PDF', data: b64(PDF) },
          { filename: 'console.log', data: b64(text) },
        ],
      }),
      user.token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const body = ticketResponseSchema.parse(res.body)
    expect(body.ticket).toMatchObject({ type: 'Bug', summary: 'Export fails' })
    const [row] = await ticketRows(body.ticket.id)
    expect(row).toMatchObject({
      orgId: user.orgId,
      userId: user.user.id,
      type: 'Bug',
      description: 'The export button does nothing',
      steps: '1. Click export',
      priority: 'High',
      browserInfo: 'Firefox 140',
      url: 'http://quire.test:3000/repository',
      customFields: [{ id: 'source', value: 'Web App' }],
    })
    const files = await attachmentRows(body.ticket.id)
    expect(
      files.map((f) => [f.filename, f.contentType, f.sizeBytes, f.orgId, f.data.length]),
    ).toEqual([
      ['screen.png', 'image/png', PNG.length, user.orgId, PNG.length],
      ['report.PDF', 'application/pdf', PDF.length, user.orgId, PDF.length],
      ['console.log', 'text/plain; charset=utf-8', text.length, user.orgId, text.length],
    ])
    expect(files[0]?.data.equals(PNG)).toBe(true)
  })

  it('defaults priority and optional fields, and takes bodies over the general 1 MB limit', async () => {
    const user = await member()
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024, 7)])
    const res = await post(
      ctx,
      PATH,
      {
        type: 'Question',
        summary: '  How?  ',
        description: 'Please explain',
        attachments: [{ filename: 'big.png', data: b64(big) }],
      },
      user.token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.ticket.summary).toBe('How?')
    const [row] = await ticketRows(res.body.ticket.id)
    expect(row).toMatchObject({ priority: 'Medium', steps: '', customFields: [] })
    const [file] = await attachmentRows(res.body.ticket.id)
    expect(file?.sizeBytes).toBe(big.length)
  })

  it('needs a signed-in user', async () => {
    const res = await post(ctx, PATH, ticket())
    expect(res.status).toBe(401)
    expect(errorSchema.parse(res.body).code).toBe('unauthorized')
  })

  it('refuses a user who must change their password first', async () => {
    const fixture = await insertUser(ctx.database, { mustChangePassword: true })
    const session = await signIn(ctx, fixture.email)
    const res = await post(ctx, PATH, ticket(), session.access)
    expect(res.status).toBe(403)
    expect(await ticketsOf(fixture.orgId)).toEqual([])
  })

  it('answers 400 with a plain message when summary or description is missing', async () => {
    const user = await member()
    const noSummary = await post(ctx, PATH, ticket({ summary: undefined }), user.token)
    expect(noSummary.status).toBe(400)
    expect(noSummary.body).toMatchObject({
      error: SUPPORT_TEXTS.summaryRequired,
      msg: SUPPORT_TEXTS.summaryRequired,
      code: 'validation_error',
    })
    const blankDescription = await post(ctx, PATH, ticket({ description: '   ' }), user.token)
    expect(blankDescription.status).toBe(400)
    expect(blankDescription.body.error).toBe(SUPPORT_TEXTS.descriptionRequired)
    const badType = await post(ctx, PATH, ticket({ type: 'Complaint' }), user.token)
    expect(badType.status).toBe(400)
    expect(badType.body.error).toMatch(/^type: /)
    const badJson = await call(ctx, 'POST', PATH, {
      token: user.token,
      headers: { 'content-type': 'application/json' },
    })
    expect(badJson.status).toBe(400)
    expect(await ticketsOf(user.orgId)).toEqual([])
  })

  it('answers 415 for a refused name or bytes that do not match it, storing nothing', async () => {
    const user = await member()
    const cases = [
      { filename: 'setup.exe', data: b64(Buffer.from('MZ\x90\x00', 'latin1')) },
      { filename: 'fake.png', data: b64(Buffer.from('<script>alert(1)</script>')) },
      { filename: 'photo.jpg', data: b64(PNG) },
      { filename: 'notes.txt', data: b64(Buffer.from([0x61, 0x00, 0x62])) },
      { filename: 'notes.log', data: b64(Buffer.from([0xc3, 0x28])) },
    ]
    for (const attachment of cases) {
      const res = await post(
        ctx,
        PATH,
        ticket({ attachments: [{ filename: 'ok.png', data: b64(PNG) }, attachment] }),
        user.token,
      )
      expect(res.status, attachment.filename).toBe(415)
      expect(res.body).toMatchObject({
        error: SUPPORT_TEXTS.attachmentType,
        code: 'unsupported_media_type',
      })
    }
    expect(await ticketsOf(user.orgId)).toEqual([])
  })

  it('answers 413 for an attachment over 10 MB once decoded', async () => {
    const user = await member()
    const justOver = Buffer.concat([PNG, Buffer.alloc(ATTACHMENT_MAX_BYTES + 1 - PNG.length)])
    const res = await post(
      ctx,
      PATH,
      ticket({ attachments: [{ filename: 'huge.png', data: b64(justOver) }] }),
      user.token,
    )
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({
      error: SUPPORT_TEXTS.attachmentTooLarge,
      code: 'payload_too_large',
    })
    // far over: refused on the base64 length alone
    const farOver = await post(
      ctx,
      PATH,
      ticket({ attachments: [{ filename: 'huge.png', data: 'A'.repeat(15 * 1024 * 1024) }] }),
      user.token,
    )
    expect(farOver.status).toBe(413)
    expect(await ticketsOf(user.orgId)).toEqual([])
  })

  it('refuses a ticket body over its own limit with 413', async () => {
    const user = await member()
    const res = await ctx.app.request(apiPath(PATH), {
      method: 'POST',
      body: 'x'.repeat(TICKET_BODY_LIMIT + 1),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    })
    expect(res.status).toBe(413)
    expect(errorSchema.parse(await res.json()).code).toBe('payload_too_large')
  })

  it('limits one ticket: 20 MB of attachments in all, 5 files, and a body near that, chunked too (issue 14 fix 8)', async () => {
    const user = await member()
    // three files of 8 MB: each within 10 MB, together over 20 MB
    const eight = Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024 - PNG.length)])
    const three = await post(
      ctx,
      PATH,
      ticket({
        attachments: ['a', 'b', 'c'].map((name) => ({ filename: `${name}.png`, data: b64(eight) })),
      }),
      user.token,
    )
    expect(three.status).toBe(413)
    expect(three.body).toMatchObject({ error: SUPPORT_TEXTS.attachmentsTooLarge })
    // a 70 MB body is refused long before it is read
    expect(TICKET_BODY_LIMIT).toBeLessThan(30 * 1024 * 1024)
    const streamed = streamedBody(70 * 1024 * 1024, 1024 * 1024, 0x41)
    const chunked = await ctx.app.request(apiPath(PATH), {
      method: 'POST',
      body: streamed.body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(streamed.pulled()).toBeLessThan(40 * 1024 * 1024)
    // six files: refused by count
    const six = await post(
      ctx,
      PATH,
      ticket({
        attachments: Array.from({ length: 6 }, (_, i) => ({
          filename: `${i}.pdf`,
          data: b64(PDF),
        })),
      }),
      user.token,
    )
    expect(six.status).toBe(400)
    expect(await ticketsOf(user.orgId)).toEqual([])
  })

  it('answers the 11th ticket of a user within an hour with 429 and the spec failure text (issue 14 fix 8)', async () => {
    const user = await member()
    for (let i = 0; i < TICKETS_PER_USER_PER_HOUR; i += 1)
      expect((await post(ctx, PATH, ticket({ summary: `Ticket ${i}` }), user.token)).status).toBe(
        201,
      )
    const res = await call(ctx, 'POST', PATH, {
      body: ticket({ summary: 'One too many' }),
      token: user.token,
    })
    expect(res.status).toBe(429)
    expect(res.body).toMatchObject({
      error: SUPPORT_TEXTS.failed,
      code: 'rate_limited',
      msg: `You have sent ${TICKETS_PER_USER_PER_HOUR} tickets in the last hour. Please try again later.`,
    })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    const stored = await ctx.database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.userId, user.user.id))
    expect(stored).toHaveLength(TICKETS_PER_USER_PER_HOUR)
    // another user of the same organisation is not affected
    const colleague = await member(user.orgId)
    expect((await post(ctx, PATH, ticket(), colleague.token)).status).toBe(201)
  })

  it('keeps the 1 MB limit on other calls', async () => {
    const res = await ctx.app.request(apiPath(paths.auth.login), {
      method: 'POST',
      body: 'x'.repeat(1024 * 1024 + 10),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
  })

  it('takes the organisation only from the session (TI3) and keeps tenants apart', async () => {
    const first = await member()
    const second = await member()
    expect(second.orgId).not.toBe(first.orgId)
    const res = await call(ctx, 'POST', `${PATH}?org_id=${first.orgId}`, {
      token: second.token,
      headers: { 'x-org-id': String(first.orgId) },
      body: ticket({
        org_id: first.orgId,
        orgId: first.orgId,
        user_id: first.user.id,
        attachments: [{ filename: 'a.png', data: b64(PNG) }],
      }),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const [row] = await ticketRows(res.body.ticket.id)
    expect(row).toMatchObject({ orgId: second.orgId, userId: second.user.id })
    const [file] = await attachmentRows(res.body.ticket.id)
    expect(file?.orgId).toBe(second.orgId)
    expect(await ticketsOf(first.orgId)).toEqual([])

    // a colleague in the same organisation files under that organisation, as themselves
    const colleague = await member(first.orgId)
    const own = await post(ctx, PATH, ticket(), colleague.token)
    expect(own.status).toBe(201)
    const [colleagueRow] = await ticketRows(own.body.ticket.id)
    expect(colleagueRow).toMatchObject({ orgId: first.orgId, userId: colleague.user.id })

    // there is no way to read tickets back through the API
    expect((await get(ctx, PATH, second.token)).status).toBe(404)
  })
})
