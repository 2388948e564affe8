import { describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { API_PREFIX, paths } from '../../contract/paths.ts'
import { type Capability, can, ROLES } from '../../contract/roles.ts'
import { questionnaire, rowsOf, uploadFile } from './answering/helpers.ts'
import { call, insertUser, signedInTeam, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * Roles, checked on the server for every call: every route of the API, called as every role and as
 * another organisation's admin. A role without the route's capability gets 403 with the denial
 * text; a role with it never does (it may get 400 for an empty body, or 404 for an id that does
 * not exist: mutations use such ids so that the matrix changes nothing). Every authenticated route
 * the server registers must be in the table, so that a new route is classified when it is added.
 */

const ctx = withTestApp({ jobs: true })
const NONE = 987654321
const Q = paths.questionnaires
const K = paths.knowledgeBase

type Row = [method: string, path: (ids: Ids) => string, capability: Capability]
interface Ids {
  file: number
  questionnaire: number
  answer: number
  question: number
  qa: number
}

const TABLE: Row[] = [
  ['GET', () => paths.account.profile, 'read'],
  ['GET', () => paths.account.license, 'read'],
  ['GET', () => paths.account.fileStats, 'read'],
  ['GET', () => paths.account.organization, 'read'],
  ['POST', () => paths.account.updateOrganization, 'organization.manage'],
  ['GET', () => paths.account.auditLog, 'organization.manage'],
  ['GET', () => paths.account.auditLogExport, 'organization.manage'],
  ['GET', () => paths.account.organizationLogo, 'read'],
  ['POST', () => paths.account.organizationLogo, 'organization.manage'],
  ['DELETE', () => paths.account.organizationLogo, 'organization.manage'],
  ['GET', () => `${paths.account.domainDnsRecord}?domain=example.com`, 'organization.manage'],
  ['POST', () => paths.account.domainVerifyDns, 'organization.manage'],
  ['POST', () => paths.extension.handoff, 'read'],
  ['POST', () => paths.extension.portalRead, 'questionnaires.write'],
  ['POST', () => paths.extension.portalFilled, 'questionnaires.write'],
  ['GET', () => paths.chat.sessions, 'read'],
  ['POST', () => paths.chat.create, 'read'],
  ['POST', () => paths.chat.createUnnamed, 'read'],
  ['GET', () => paths.chat.session(NONE), 'read'],
  ['POST', () => paths.chat.update(NONE), 'read'],
  ['POST', () => paths.chat.delete(NONE), 'read'],
  ['DELETE', () => paths.chat.delete(NONE), 'read'],
  ['GET', () => paths.chat.messages(NONE), 'read'],
  ['POST', () => paths.chat.messages(NONE), 'read'],
  ['GET', () => paths.chat.quota, 'read'],
  ['GET', () => paths.chat.export(NONE), 'read'],
  ['GET', () => paths.chat.dynamicQuestions, 'read'],
  ['GET', () => paths.sso.settings, 'organization.manage'],
  ['POST', () => paths.sso.settingsUpdate, 'organization.manage'],
  ['POST', () => paths.sso.test, 'organization.manage'],
  ['GET', () => paths.account.licenseTiers, 'read'],
  ['GET', () => paths.account.usage, 'read'],
  ['GET', () => paths.payouts.subscription, 'read'],
  ['GET', () => paths.payouts.config, 'read'],
  ['POST', () => paths.payouts.checkout, 'organization.manage'],
  ['POST', () => paths.auth.tokenGet, 'read'],
  ['POST', () => paths.users.invite, 'users.manage'],
  ['GET', () => paths.users.list, 'users.manage'],
  ['POST', () => paths.users.update(NONE), 'users.manage'],
  ['POST', () => paths.users.role(NONE), 'users.manage'],
  ['POST', () => paths.users.remove(NONE), 'users.manage'],
  ['POST', () => paths.users.approve(NONE), 'users.manage'],
  ['POST', () => paths.users.reject(NONE), 'users.manage'],
  ['POST', () => paths.users.sendMagicLink(NONE), 'users.manage'],
  ['POST', () => paths.users.generateTemporaryPassword(NONE), 'users.manage'],
  ['POST', () => paths.support.createTask, 'read'],
  // repository
  ['GET', () => paths.files.list, 'read'],
  ['GET', (ids) => paths.files.get(ids.file), 'read'],
  ['GET', (ids) => paths.files.download(ids.file), 'read'],
  ['POST', () => paths.files.upload, 'repository.write'],
  ['POST', () => paths.files.uploadUrls, 'repository.write'],
  ['POST', () => paths.files.batchDelete, 'repository.write'],
  ['GET', () => paths.files.delete(NONE), 'repository.write'],
  ['DELETE', () => paths.files.delete(NONE), 'repository.write'],
  ['POST', () => paths.files.reprocess(NONE), 'repository.write'],
  ['POST', () => paths.files.updateTags(NONE), 'repository.write'],
  ['PATCH', () => paths.files.updateTags(NONE), 'repository.write'],
  ['PUT', () => paths.files.updateTags(NONE), 'repository.write'],
  ['POST', () => paths.files.replace(NONE), 'repository.write'],
  ['GET', (ids) => paths.files.versions(ids.file), 'read'],
  ['GET', (ids) => paths.files.details(ids.file), 'read'],
  ['GET', (ids) => paths.files.passages(ids.file), 'read'],
  ['GET', (ids) => paths.files.versionDownload(ids.file, 1), 'read'],
  // knowledge base
  ['GET', () => K.qa, 'read'],
  ['GET', () => K.answered, 'read'],
  ['GET', () => K.health, 'read'],
  ['GET', (ids) => K.qaItem(ids.qa), 'read'],
  ['GET', () => K.data, 'read'],
  ['GET', () => K.files, 'read'],
  ['GET', () => `${K.search}?q=backups`, 'read'],
  ['POST', () => K.qa, 'library.manage'],
  ['PATCH', () => K.qaItem(NONE), 'library.manage'],
  // the owner of an item may confirm it too: the service checks who
  ['POST', () => K.qaReviewed(NONE), 'read'],
  ['DELETE', () => K.deleteQa(NONE), 'library.manage'],
  ['POST', () => K.data, 'library.manage'],
  ['GET', () => K.dataItem(NONE), 'read'],
  ['PATCH', () => K.dataItem(NONE), 'library.manage'],
  ['DELETE', () => K.deleteData(NONE), 'library.manage'],
  ['POST', () => K.importPreview, 'library.manage'],
  ['POST', () => K.import, 'library.manage'],
  // the trust centre (issue 40): its admins keep the page, the library's curators what is on it
  ['GET', () => paths.trust.settings, 'organization.manage'],
  ['POST', () => paths.trust.settings, 'organization.manage'],
  ['POST', (ids) => paths.trust.file(ids.file), 'library.manage'],
  ['POST', (ids) => paths.trust.qa(ids.qa), 'library.manage'],
  ['GET', () => paths.trust.requests, 'organization.manage'],
  ['POST', () => paths.trust.request(NONE, 'approve'), 'organization.manage'],
  ['POST', () => paths.trust.request(NONE, 'reject'), 'organization.manage'],
  ['POST', () => paths.trust.request(NONE, 'revoke'), 'organization.manage'],
  ['POST', () => paths.trust.request(NONE, 'extend'), 'organization.manage'],
  ['GET', () => paths.trust.items, 'library.manage'],
  ['GET', () => paths.trust.analytics, 'organization.manage'],
  ['GET', () => `${paths.trust.analytics}?days=7`, 'organization.manage'],
  ['GET', () => paths.platform.apiKeys, 'organization.manage'],
  ['POST', () => paths.platform.apiKeys, 'organization.manage'],
  ['POST', () => paths.platform.apiKeyRevoke(NONE), 'organization.manage'],
  ['POST', () => paths.platform.answer, 'read'],
  ['GET', () => paths.platform.webhooks, 'organization.manage'],
  ['POST', () => paths.platform.webhooks, 'organization.manage'],
  ['POST', () => paths.platform.webhookDelete(NONE), 'organization.manage'],
  ['POST', () => paths.platform.webhookEnable(NONE), 'organization.manage'],
  ['GET', () => paths.platform.webhookDeliveries(NONE), 'organization.manage'],
  ['POST', () => paths.platform.webhookReplay(NONE, NONE), 'organization.manage'],
  // products (issue 38)
  ['GET', () => paths.products.list, 'read'],
  ['POST', () => paths.products.list, 'library.manage'],
  ['GET', () => paths.products.item(NONE), 'read'],
  ['PATCH', () => paths.products.item(NONE), 'library.manage'],
  ['DELETE', () => paths.products.item(NONE), 'library.manage'],
  ['POST', () => paths.products.assign, 'repository.write'],
  // questionnaires
  ['GET', () => Q.list, 'read'],
  ['GET', (ids) => Q.get(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.answers(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.answersByTab(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.tabs(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.download(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.operations(ids.questionnaire), 'read'],
  ['POST', () => Q.exportOriginal, 'read'],
  ['POST', () => Q.exportBasic, 'read'],
  ['GET', () => Q.exportRun(NONE), 'read'],
  ['POST', () => Q.checkFilledFile, 'read'],
  ['GET', (ids) => `${Q.checkFilledFile}?questionnaire_id=${ids.questionnaire}`, 'read'],
  ['GET', (ids) => `${Q.downloadFilledFile}?questionnaire_id=${ids.questionnaire}`, 'read'],
  ['GET', () => Q.filledFileDownload(NONE), 'read'],
  ['POST', () => Q.upload, 'questionnaires.write'],
  ['POST', () => Q.batchDelete, 'questionnaires.write'],
  ['GET', () => Q.delete(NONE), 'questionnaires.write'],
  ['DELETE', () => Q.delete(NONE), 'questionnaires.write'],
  ['POST', () => Q.delete(NONE), 'questionnaires.write'],
  ['POST', () => Q.reAnalyze(NONE), 'questionnaires.write'],
  ['POST', () => Q.undo(NONE), 'questionnaires.write'],
  ['POST', () => Q.generate(NONE), 'questionnaires.write'],
  ['GET', (ids) => Q.previous(ids.questionnaire), 'read'],
  ['POST', () => Q.carryForward(NONE), 'questionnaires.write'],
  ['POST', () => Q.cancelGeneration(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.regenerate(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.confirmSource(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.regenerateWithEvidence(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.applyConsistency(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.edit(NONE), 'questionnaires.write'],
  ['PATCH', () => Q.answer.edit(NONE), 'questionnaires.write'],
  ['PUT', () => Q.answer.edit(NONE), 'questionnaires.write'],
  ['POST', () => Q.answer.approve(NONE), 'answers.approve'],
  ['POST', () => Q.answer.unApprove(NONE), 'answers.approve'],
  ['POST', () => Q.answer.saveToLibrary(NONE), 'library.manage'],
  ['POST', () => Q.selectAnswer(NONE, NONE), 'questionnaires.write'],
  ['POST', () => Q.deleteQuestion(NONE), 'questionnaires.write'],
  ['DELETE', () => Q.deleteQuestion(NONE), 'questionnaires.write'],
  ['POST', () => Q.sections.consistency(NONE), 'questionnaires.write'],
  ['POST', () => Q.sections.shorten(NONE), 'questionnaires.write'],
  ['POST', () => Q.sections.examples(NONE), 'questionnaires.write'],
  ['POST', () => Q.sections.custom(NONE), 'questionnaires.write'],
  // working together (issue 29)
  ['POST', () => Q.work(NONE), 'questionnaires.write'],
  ['PATCH', () => Q.work(NONE), 'questionnaires.write'],
  ['GET', () => Q.customers, 'read'],
  ['POST', () => Q.customers, 'questionnaires.write'],
  ['GET', () => Q.customer(NONE), 'read'],
  ['GET', () => Q.people, 'read'],
  ['GET', () => Q.team, 'read'],
  ['POST', () => Q.assign(NONE), 'questionnaires.write'],
  ['GET', () => paths.me.assignments, 'read'],
  ['POST', () => Q.review(NONE), 'questionnaires.write'],
  ['GET', (ids) => Q.activity(ids.questionnaire), 'read'],
  ['GET', (ids) => Q.comments(ids.question), 'read'],
  ['POST', () => Q.comments(NONE), 'questionnaires.write'],
  ['PATCH', () => Q.comment(NONE), 'questionnaires.write'],
  ['POST', () => Q.comment(NONE), 'questionnaires.write'],
  ['DELETE', () => Q.comment(NONE), 'questionnaires.write'],
  ['POST', () => Q.resolveComment(NONE), 'questionnaires.write'],
  ['POST', () => Q.reopenComment(NONE), 'questionnaires.write'],
  ['GET', () => paths.notifications.list, 'read'],
  ['POST', () => paths.notifications.read, 'read'],
  ['GET', () => paths.me.notificationPreferences, 'read'],
  ['PUT', () => paths.me.notificationPreferences, 'read'],
  ['POST', () => paths.me.notificationPreferences, 'read'],
]

/**
 * Streams that stay open (server-sent events): every role may listen, to its own organisation
 * only (tests/server/collaboration/stream.test.ts and notifications.test.ts); classified here,
 * not called.
 */
const STREAMS: Row[] = [
  ['GET', (ids) => Q.events(ids.questionnaire), 'read'],
  ['GET', () => paths.notifications.stream, 'read'],
]

/** Routes anyone may call: signing in and its links, and the health check. */
const PUBLIC = [
  paths.health,
  // the instance's terms and privacy policy (issue 30)
  paths.legal('terms'),
  paths.auth.login,
  paths.auth.register,
  paths.auth.confirmEmail,
  paths.auth.tokenRefresh,
  paths.auth.requestPasswordReset,
  paths.auth.validatePasswordResetToken,
  paths.auth.confirmPasswordReset,
  paths.auth.setPassword,
  paths.auth.logout,
  paths.sso.discover,
  paths.sso.providersStatus,
  paths.extension.config,
  paths.sso.login('google'),
  paths.sso.callback('google'),
  // SAML responses are posted by the identity provider's form
  paths.sso.callback('microsoft_saml'),
  paths.sso.exchange,
  paths.auth.googleStart,
  paths.auth.googleCallback,
  paths.auth.magicLink,
  // the provider's signed deliveries (any caller), and the landing page's confirmation (any
  // signed-in role, its own organisation's transactions: tests/server/billing.test.ts)
  paths.payouts.webhook,
  // a flagged account may change its password and nothing else (AS7): any role
  paths.auth.changePasswordForced,
  // a mailed one-click unsubscribe link, signed for its person (issue 29)
  paths.notifications.unsubscribe,
  // the trust centre as anyone reads it (issue 40): public items of a published page only
  paths.publicTrust.page('acme'),
  paths.publicTrust.download('acme', 1),
  paths.publicTrust.requests('acme'),
  paths.publicTrust.session('acme'),
  paths.publicTrust.ask('acme'),
  paths.publicTrust.reader('acme'),
  // the API's own description (issue 41)
  '/openapi.json',
  paths.publicTrust.logo('acme'),
]

/** A route pattern as Hono registers it ('/files/:id{[0-9]+}/') as a regular expression. */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .replace(/:[a-z]+(?:\{[^}]*\})?/gi, '\u0000')
      .replace(/[.*+?^$(){}|[\]\\]/g, '\\$&')
      .replaceAll('\u0000', '[^/]+')}$`,
  )

describe('roles, on every call', () => {
  it('lists every authenticated route in the matrix', () => {
    const routes = ctx.app.routes.filter(
      (route) => route.method !== 'ALL' && route.path.startsWith(`${API_PREFIX}/`),
    )
    const ids: Ids = { file: 1, questionnaire: 1, answer: 1, question: 1, qa: 1 }
    const concrete = [...TABLE, ...STREAMS].map(([method, path]) => ({
      method,
      path: `${API_PREFIX}${path(ids).split('?')[0]}`,
    }))
    const unclassified = routes.filter((route) => {
      const pattern = patternOf(route.path)
      if (PUBLIC.some((path) => pattern.test(`${API_PREFIX}${path}`))) return false
      return !concrete.some((row) => row.method === route.method && pattern.test(row.path))
    })
    expect(unclassified.map((route) => `${route.method} ${route.path}`)).toEqual([])
  })

  it('gives each role exactly what its capabilities allow, and another organisation nothing', async () => {
    const admin = await insertUser(ctx.database, { role: 'admin' })
    const adminSession = await signIn(ctx, admin.email)
    // the organisation's work, made by its admin
    const file = await uploadFile(ctx, adminSession.access, 'policy.txt', 'Backups run nightly.')
    const q = await questionnaire(ctx, adminSession.access, ['Do you back up data?'])
    const rows = await rowsOf(ctx, adminSession.access, q.id)
    const qa = await call(ctx, 'POST', K.qa, {
      token: adminSession.access,
      body: { question: 'Do you encrypt backups?', answer: 'Yes' },
    })
    expect(qa.status, JSON.stringify(qa.body)).toBe(201)
    const ids: Ids = {
      file,
      questionnaire: q.id,
      answer: rows[0].answer.id,
      question: rows[0].id,
      qa: qa.body.id,
    }

    const tokens = await signedInTeam(ctx, ROLES, admin.orgId)
    const wrong: string[] = []
    for (const [method, path, capability] of TABLE) {
      for (const role of ROLES) {
        const res = await call(ctx, method, path(ids), {
          token: tokens[role],
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        })
        const denied = res.status === 403 && res.body?.error === AUTH_TEXTS.permissionDenied
        if (denied !== !can(role, capability))
          wrong.push(`${role} ${method} ${path(ids)}: ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
    expect(wrong).toEqual([])

    // another organisation's admin: every id of this one is a 404, and lists hold none of it
    const other = await insertUser(ctx.database, { role: 'admin' })
    const otherToken = (await signIn(ctx, other.email)).access
    for (const path of [
      paths.files.get(ids.file),
      paths.files.download(ids.file),
      K.qaItem(ids.qa),
      Q.get(ids.questionnaire),
      Q.answers(ids.questionnaire),
      Q.tabs(ids.questionnaire),
      Q.download(ids.questionnaire),
      Q.operations(ids.questionnaire),
      Q.activity(ids.questionnaire),
      Q.comments(ids.question),
    ]) {
      const res = await call(ctx, 'GET', path, { token: otherToken })
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(404)
    }
    for (const [method, path] of [
      ['DELETE', paths.files.delete(ids.file)],
      ['POST', Q.delete(ids.questionnaire)],
      ['POST', Q.answer.approve(ids.answer)],
      ['POST', Q.deleteQuestion(ids.question)],
      ['DELETE', K.deleteQa(ids.qa)],
      ['POST', Q.work(ids.questionnaire)],
    ] as const) {
      const res = await call(ctx, method, path, { token: otherToken, body: {} })
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404)
    }
    const files = await call(ctx, 'GET', paths.files.list, { token: otherToken })
    expect(JSON.stringify(files.body)).not.toContain('policy.txt')
    // and nothing of this organisation changed
    expect(
      (await call(ctx, 'GET', Q.get(ids.questionnaire), { token: adminSession.access })).status,
    ).toBe(200)
    expect(
      (await call(ctx, 'GET', paths.files.get(ids.file), { token: adminSession.access })).status,
    ).toBe(200)
  })

  it("lets a contributor delete only their own work, and an approver anyone's", async () => {
    const {
      admin: adminToken,
      contributor: contributorToken,
      approver: approverToken,
    } = await signedInTeam(ctx, ['admin', 'contributor', 'approver'])

    const theirs = await uploadFile(ctx, adminToken, 'admin.txt', 'Backups run nightly.')
    const mine = await uploadFile(ctx, contributorToken, 'mine.txt', 'Logs are kept a year.')
    const refused = await call(ctx, 'DELETE', paths.files.delete(theirs), {
      token: contributorToken,
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatch(/You can delete only files you uploaded/)
    // a batch with someone else's file deletes nothing
    const batch = await call(ctx, 'POST', paths.files.batchDelete, {
      token: contributorToken,
      body: { file_ids: [mine, theirs] },
    })
    expect(batch.status).toBe(403)
    expect((await call(ctx, 'GET', paths.files.get(mine), { token: adminToken })).status).toBe(200)
    const own = await call(ctx, 'DELETE', paths.files.delete(mine), { token: contributorToken })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    const byApprover = await call(ctx, 'DELETE', paths.files.delete(theirs), {
      token: approverToken,
    })
    expect(byApprover.status).toBe(200)

    const adminQ = await questionnaire(ctx, adminToken, ['Do you back up data?'])
    const [row] = await rowsOf(ctx, adminToken, adminQ.id)
    const question = await call(ctx, 'POST', Q.deleteQuestion(row.id), {
      token: contributorToken,
      body: {},
    })
    expect(question.status).toBe(403)
    const removed = await call(ctx, 'POST', Q.delete(adminQ.id), {
      token: contributorToken,
      body: {},
    })
    expect(removed.status).toBe(403)
    expect(removed.body.error).toMatch(/You can delete only questionnaires you uploaded/)
    const myQ = await questionnaire(ctx, contributorToken, ['Do you log access?'])
    expect(
      (await call(ctx, 'POST', Q.delete(myQ.id), { token: contributorToken, body: {} })).status,
    ).toBe(200)
    expect(
      (await call(ctx, 'POST', Q.delete(adminQ.id), { token: approverToken, body: {} })).status,
    ).toBe(200)
  })

  it('lets only an approver or an admin change an approved answer', async () => {
    const {
      admin: adminToken,
      contributor: contributorToken,
      approver: approverToken,
    } = await signedInTeam(ctx, ['admin', 'contributor', 'approver'])
    const q = await questionnaire(ctx, adminToken, ['Do you encrypt backups?'])
    const [row] = await rowsOf(ctx, adminToken, q.id)
    const answer = row.answer.id as number
    const edit = (token: string, text: string) =>
      call(ctx, 'POST', Q.answer.edit(answer), { token, body: { choice: 'Yes', text } })
    expect((await edit(contributorToken, 'Backups are encrypted.')).status).toBe(200)
    expect(
      (await call(ctx, 'POST', Q.answer.approve(answer), { token: adminToken, body: {} })).status,
    ).toBe(200)
    for (const [method, path, body] of [
      ['POST', Q.answer.edit(answer), { text: 'Changed after approval.' }],
      ['POST', Q.answer.regenerate(answer), {}],
      ['POST', Q.answer.regenerateWithEvidence(answer), { evidence: 'Backups use AES-256.' }],
      ['POST', Q.selectAnswer(row.id, answer), {}],
    ] as const) {
      const refused = await call(ctx, method, path, { token: contributorToken, body })
      expect(refused.status, path).toBe(403)
      expect(refused.body.error).toMatch(/This answer is approved/)
    }
    expect((await rowsOf(ctx, adminToken, q.id))[0].answer.status).toBe('approved')
    // nor may a contributor undo the approval (the latest operation)
    const undo = (token: string) => call(ctx, 'POST', Q.undo(q.id), { token, body: {} })
    const refusedUndo = await undo(contributorToken)
    expect(refusedUndo.status).toBe(403)
    expect(refusedUndo.body.error).toMatch(/This answer is approved/)
    expect((await rowsOf(ctx, adminToken, q.id))[0].answer.status).toBe('approved')
    expect((await edit(approverToken, 'Backups are encrypted with AES-256.')).status).toBe(200)
    // the approver's change of the approved answer is theirs to undo, not a contributor's
    expect((await undo(contributorToken)).status).toBe(403)
    expect((await undo(approverToken)).status).toBe(200)
    expect((await rowsOf(ctx, adminToken, q.id))[0].answer.status).toBe('approved')
  })
})
