import { describe, expect, it } from 'vitest'
import { paths } from '../../contract/paths.ts'
import { PORTAL_TEXTS, type PortalField } from '../../contract/portal.ts'
import { type Body, member } from './answering/helpers.ts'
import { get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * Issue 42: a portal page's questions, as the extension's reader sends them, kept as one
 * questionnaire per address and drafted by the engine a spreadsheet gets; what was filled is in
 * the history.
 */
const ctx = withTestApp({ jobs: true })
const E = paths.extension
const Q = paths.questionnaires

const fields: PortalField[] = [
  {
    key: 'select:encryption',
    question: 'Is customer data encrypted at rest?',
    kind: 'select',
    options: ['Implemented', 'Planned', 'Not applicable'],
    value: '',
  },
  {
    key: 'textarea:backups',
    question: 'Describe how backups are protected.',
    kind: 'textarea',
    options: [],
    value: '',
  },
  {
    key: 'radio:mfa',
    question: 'Do you enforce multi-factor authentication for administrators?',
    kind: 'radio',
    options: ['Yes', 'No', 'N/A'],
    value: '',
  },
  {
    key: 'text:quantum',
    question: 'Which quantum-resistant key exchange do your satellites use?',
    kind: 'text',
    options: [],
    value: '',
  },
]

async function library(token: string) {
  for (const [question, answer] of [
    [
      'Is customer data encrypted at rest?',
      'Yes. Customer data is encrypted at rest with AES-256.',
    ],
    [
      'Describe how backups are protected.',
      'Backups are encrypted with AES-256 and kept in a second region for 35 days.',
    ],
    [
      'Do you enforce multi-factor authentication for administrators?',
      'Yes. Every administrator signs in with multi-factor authentication.',
    ],
    [
      'Which frameworks are you certified against?',
      'We are certified against ISO 27001 and hold a SOC 2 report; we do not take card payments, so PCI DSS does not apply.',
    ],
  ]) {
    const added = await post(ctx, paths.knowledgeBase.qa, { question, answer }, token)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
  }
}

const byKey = (body: Body) =>
  Object.fromEntries((body.answers as Body[]).map((answer) => [answer.key, answer]))

describe('portal questionnaires', () => {
  it('keeps a page as one questionnaire per address, drafts it, and records what was filled', async () => {
    const ana = await member(ctx)
    await library(ana.token)
    const url = 'https://vendors.example.com/assess/42?utm_source=mail#page-1'
    const read = await post(
      ctx,
      E.portalRead,
      { url, title: 'Example Corp vendor assessment', fields },
      ana.token,
    )
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    expect(read.body).toMatchObject({
      name: 'Example Corp vendor assessment',
      url: 'https://vendors.example.com/assess/42',
      added: 4,
      changed: 0,
    })
    const drafts = byKey(read.body)
    expect(Object.keys(drafts)).toEqual(fields.map((field) => field.key))
    // a choice goes to the option its answer names: 'Yes' is the select's 'Implemented'
    expect(drafts['select:encryption']).toMatchObject({ option: 'Implemented', band: 'high' })
    expect(drafts['radio:mfa']).toMatchObject({ option: 'Yes', band: 'high' })
    expect(drafts['textarea:backups'].text).toContain('AES-256')
    expect(drafts['textarea:backups'].citations.length).toBeGreaterThan(0)
    // nothing in the knowledge answers it: no words invented
    expect(drafts['text:quantum']).toMatchObject({ text: '', band: null })

    // an ordinary questionnaire afterwards, with its address, in the list
    const id = read.body.questionnaire_id
    const listed = await get(ctx, `${Q.list}?search=vendor`, ana.token)
    const row = listed.body.results.find((q: Body) => q.id === id)
    expect(row).toMatchObject({
      kind: 'portal',
      portal_url: 'https://vendors.example.com/assess/42',
      questions: 4,
      status: 'ready',
      can_export_original: false,
    })
    expect(row.answered).toBe(3)
    expect((await get(ctx, Q.download(id), ana.token)).body.error).toBe(PORTAL_TEXTS.noFile)
    expect((await post(ctx, Q.reAnalyze(id), {}, ana.token)).body.error).toBe(
      PORTAL_TEXTS.readAgain,
    )

    // a person edits one in the workspace; reading the page again keeps it and adds the next page
    const edited = await post(
      ctx,
      Q.answer.edit(drafts['textarea:backups'].answer_id),
      { text: 'Backups are encrypted and copied to a second region every night.' },
      ana.token,
    )
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    const next: PortalField = {
      key: 'checkbox:frameworks',
      question: 'Which frameworks are you certified against?',
      kind: 'checkbox',
      options: ['ISO 27001', 'SOC 2', 'PCI DSS'],
      value: '',
    }
    const reworded = { ...(fields[3] as PortalField), question: 'Which key exchange do you use?' }
    const again = await post(
      ctx,
      E.portalRead,
      {
        url: 'https://VENDORS.example.com/assess/42/',
        title: 'Renamed',
        fields: [...fields.slice(0, 3), reworded, next],
      },
      ana.token,
    )
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body).toMatchObject({ questionnaire_id: id, added: 1, changed: 1 })
    const after = byKey(again.body)
    expect(after['textarea:backups']).toMatchObject({
      status: 'edited',
      text: 'Backups are encrypted and copied to a second region every night.',
      band: null,
    })
    expect(after['textarea:backups'].version).toBeGreaterThan(drafts['textarea:backups'].version)
    expect(after['select:encryption'].answer_id).toBe(drafts['select:encryption'].answer_id)
    // a checkbox group takes the options its answer names, not the one it denies
    expect(after['checkbox:frameworks']).toMatchObject({ option: 'ISO 27001, SOC 2' })
    // a wizard's next page at another address joins the questionnaire it names
    const wizard = await post(
      ctx,
      E.portalRead,
      {
        url: 'https://vendors.example.com/assess/42/step-2',
        fields: [
          { key: 'text:dpo', question: 'Who is your data protection officer?', kind: 'text' },
        ],
        questionnaire_id: id,
      },
      ana.token,
    )
    expect(wizard.body).toMatchObject({ questionnaire_id: id, added: 1 })
    const answers = await get(ctx, Q.answers(id), ana.token)
    expect(answers.body.questions.map((q: Body) => q.text).at(-1)).toBe(
      'Who is your data protection officer?',
    )
    expect(answers.body.questionnaire.questions).toBe(6)

    // what was filled goes into the history; an answer of another questionnaire is refused
    const filled = await post(
      ctx,
      E.portalFilled,
      {
        questionnaire_id: id,
        fills: [
          { key: 'select:encryption', answer_id: after['select:encryption'].answer_id },
          {
            key: 'textarea:backups',
            answer_id: after['textarea:backups'].answer_id,
            overwrote: true,
          },
        ],
      },
      ana.token,
    )
    expect(filled.status, JSON.stringify(filled.body)).toBe(200)
    expect(filled.body).toEqual({ recorded: 2 })
    const history = await get(ctx, Q.operations(id), ana.token)
    const summaries = (history.body.operations ?? history.body).map((op: Body) => op.summary)
    expect(summaries[0]).toBe(
      'Filled 2 answers into the portal page (1 replacing what the page held)',
    )
    expect(summaries.some((s: string) => s.startsWith('Read the portal page'))).toBe(true)
    const refused = await post(
      ctx,
      E.portalFilled,
      { questionnaire_id: id, fills: [{ key: 'x', answer_id: 999_999_999 }] },
      ana.token,
    )
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe(PORTAL_TEXTS.unknownAnswer)
  })

  it('refuses bad input in plain words, other organisations, and viewers', async () => {
    const ana = await member(ctx)
    const bad = await post(ctx, E.portalRead, { url: 'ftp://x.example/', fields }, ana.token)
    expect(bad.status).toBe(400)
    const empty = await post(
      ctx,
      E.portalRead,
      { url: 'https://x.example/', fields: [] },
      ana.token,
    )
    expect(empty.status).toBe(400)
    expect(empty.body.error).toContain('No question fields were found on this page.')
    expect((await post(ctx, E.portalRead, { url: 'https://x.example/', fields })).status).toBe(401)

    const viewer = await insertUser(ctx.database, { role: 'viewer', orgId: ana.orgId })
    const viewerToken = (await signIn(ctx, viewer.email)).access
    expect(
      (await post(ctx, E.portalRead, { url: 'https://x.example/', fields }, viewerToken)).status,
    ).toBe(403)

    const mine = await post(ctx, E.portalRead, { url: 'https://x.example/form', fields }, ana.token)
    expect(mine.status).toBe(200)
    const other = await member(ctx)
    const theirs = await post(
      ctx,
      E.portalRead,
      { url: 'https://x.example/form', fields, questionnaire_id: mine.body.questionnaire_id },
      other.token,
    )
    expect(theirs.status).toBe(404)
    // the same address in another organisation is another questionnaire
    const own = await post(
      ctx,
      E.portalRead,
      { url: 'https://x.example/form', fields },
      other.token,
    )
    expect(own.body.questionnaire_id).not.toBe(mine.body.questionnaire_id)
    expect(
      (
        await post(
          ctx,
          E.portalFilled,
          {
            questionnaire_id: mine.body.questionnaire_id,
            fills: [{ key: 'a', answer_id: mine.body.answers[0].answer_id }],
          },
          other.token,
        )
      ).status,
    ).toBe(404)
  })
})
