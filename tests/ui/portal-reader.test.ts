import { afterEach, describe, expect, it } from 'vitest'
import { fillField, findFields, optionFor } from '../../extension-src/reader.ts'

/**
 * The portal reader (issue 42) on fixture pages shaped as real portals are: labels, tables,
 * groups with legends, selects whose options are not Yes/No, shadow roots and frames. Its fills
 * are what a framework sees of typing, and never overwrite what a person wrote unless told.
 */

const page = (html: string) => {
  document.body.innerHTML = html
  return document
}
const read = () => findFields(document).map((found) => found.field)
afterEach(() => {
  document.body.innerHTML = ''
})

describe('the portal reader (issue 42)', () => {
  it('reads a plain form: labels, wrapping labels, aria, and the text before a field', () => {
    page(`
      <form>
        <label for="enc">Do you encrypt data at rest?</label><input id="enc" name="enc">
        <label>Describe your backup policy <textarea name="backup"></textarea></label>
        <input name="mfa" aria-label="Is MFA required for staff?">
        <p>Who is your security contact?</p><div><input name="contact" placeholder="name@example.com"></div>
        <input type="hidden" name="token" value="x"><input type="password" name="pw">
        <button type="submit">Send</button>
      </form>`)
    expect(read()).toEqual([
      {
        key: 'text:enc',
        question: 'Do you encrypt data at rest?',
        kind: 'text',
        options: [],
        value: '',
      },
      {
        key: 'textarea:backup',
        question: 'Describe your backup policy',
        kind: 'textarea',
        options: [],
        value: '',
      },
      {
        key: 'text:mfa',
        question: 'Is MFA required for staff?',
        kind: 'text',
        options: [],
        value: '',
      },
      {
        key: 'text:contact',
        question: 'Who is your security contact?',
        kind: 'text',
        options: [],
        value: '',
      },
    ])
  })

  it('reads a long form in a table, groups with legends, and selects of their own words', () => {
    page(`
      <table>
        <tr><td>1.1</td><td>Do you run annual penetration tests?</td><td><select name="pt">
          <option value="">Choose</option><option value="i">Implemented</option>
          <option value="p">Planned</option><option value="na">Not applicable</option></select></td></tr>
      </table>
      <fieldset><legend>Do you screen new staff?</legend>
        <label><input type="radio" name="screen" value="y"> Yes</label>
        <label><input type="radio" name="screen" value="n"> No</label>
      </fieldset>
      <fieldset><legend>Which frameworks do you hold?</legend>
        <label><input type="checkbox" name="fw" value="soc"> SOC 2</label>
        <label><input type="checkbox" name="fw" value="iso" checked> ISO 27001</label>
      </fieldset>`)
    expect(read()).toEqual([
      {
        key: 'select:pt',
        question: '1.1 Do you run annual penetration tests?',
        kind: 'select',
        options: ['Implemented', 'Planned', 'Not applicable'],
        value: '',
      },
      {
        key: 'radio:screen',
        question: 'Do you screen new staff?',
        kind: 'radio',
        options: ['Yes', 'No'],
        value: '',
      },
      {
        key: 'checkbox:fw',
        question: 'Which frameworks do you hold?',
        kind: 'checkbox',
        options: ['SOC 2', 'ISO 27001'],
        value: 'ISO 27001',
      },
    ])
  })

  it('reads inside open shadow roots', () => {
    page('<vendor-question></vendor-question>')
    const host = document.querySelector('vendor-question') as HTMLElement
    const shadow = host.attachShadow({ mode: 'open' })
    shadow.innerHTML = '<label for="q">Do you log admin access?</label><input id="q">'
    expect(read()).toEqual([
      { key: 'text:q', question: 'Do you log admin access?', kind: 'text', options: [], value: '' },
    ])
  })

  it('fills as typing does, picks the option an answer names, and never overwrites unasked', () => {
    page(`
      <label for="enc">Do you encrypt data at rest?</label><input id="enc">
      <label for="done">Already answered?</label><input id="done" value="Yes, since 2019">
      <label for="pt">Penetration tests?</label><select id="pt"><option value="">Choose</option>
        <option value="i">Implemented</option><option value="p">Planned</option><option value="na">Not applicable</option></select>
      <fieldset><legend>Do you screen new staff?</legend>
        <label><input type="radio" name="screen" value="y"> Yes</label>
        <label><input type="radio" name="screen" value="n"> No</label></fieldset>`)
    const events: string[] = []
    document.addEventListener('input', (event) =>
      events.push(`input:${(event.target as HTMLElement).id}`),
    )
    expect(fillField(document, 'text:enc', 'Yes. AES-256 at rest.')).toEqual({ ok: true })
    expect((document.getElementById('enc') as HTMLInputElement).value).toBe('Yes. AES-256 at rest.')
    expect(events).toContain('input:enc')
    expect(fillField(document, 'text:done', 'No')).toEqual({
      ok: false,
      reason: 'The field already holds an answer.',
    })
    expect((document.getElementById('done') as HTMLInputElement).value).toBe('Yes, since 2019')
    expect(fillField(document, 'text:done', 'No', { overwrite: true })).toEqual({ ok: true })
    expect(fillField(document, 'select:pt', 'Yes')).toEqual({ ok: true })
    expect((document.getElementById('pt') as HTMLSelectElement).value).toBe('i')
    expect(fillField(document, 'radio:screen', 'No')).toEqual({ ok: true })
    expect((document.querySelector('input[value="n"]') as HTMLInputElement).checked).toBe(true)
    expect(fillField(document, 'text:nothing', 'x')).toEqual({
      ok: false,
      reason: 'No such field on the page.',
    })
  })

  it('leaves out what a person does not answer: search boxes, read-only fields, hidden sections', () => {
    page(`
      <style>.reviewer-only { display: none } .step { display: none } .step.current { display: block }</style>
      <form action="/search"><input type="search" name="q" aria-label="Search the portal"></form>
      <label for="ref">Assessment reference</label><input id="ref" value="VRA-1" readonly>
      <label for="note">Reviewer notes</label><textarea id="note" readonly></textarea>
      <div class="reviewer-only"><label for="internal">Internal notes</label><textarea id="internal"></textarea></div>
      <section class="step current"><label for="one">Legal entity name</label><input id="one"></section>
      <section class="step"><label for="two">Who approves your security policy?</label><input id="two"></section>`)
    expect(read().map((field) => field.question)).toEqual(['Legal entity name'])
    expect(fillField(document, 'text:two', 'The board')).toMatchObject({ ok: false })
    ;(document.querySelector('.step.current') as HTMLElement).classList.remove('current')
    ;(document.querySelectorAll('.step')[1] as HTMLElement).classList.add('current')
    expect(read().map((field) => field.question)).toEqual(['Who approves your security policy?'])
  })

  it("reads a question's words without its required marker", () => {
    page(`
      <label for="email">Email address of your security contact <abbr title="required">*</abbr></label>
      <input id="email" type="email">
      <fieldset><legend>Which environments does your SOC 2 report cover? <span aria-hidden="true">*</span></legend>
        <label><input type="checkbox" name="scope" value="p"> Production</label>
        <label><input type="checkbox" name="scope" value="s"> Staging</label></fieldset>`)
    expect(read().map((field) => field.question)).toEqual([
      'Email address of your security contact',
      'Which environments does your SOC 2 report cover?',
    ])
  })

  it("reads each group's own question inside a section's fieldset, and a lone checkbox by its label", () => {
    page(`
      <fieldset><legend>Vulnerability management</legend>
        <div class="question"><p>Are critical vulnerabilities fixed within 14 days?</p>
          <div class="options"><input type="radio" id="c-y" name="critical" value="y"><label for="c-y">Yes</label>
            <input type="radio" id="c-n" name="critical" value="n"><label for="c-n">No</label></div></div>
        <div class="question"><p>Which tools scan your code?</p>
          <div class="options"><label><input type="checkbox" name="tools" value="s"> Static analysis</label>
            <label><input type="checkbox" name="tools" value="d"> Dependency scanning</label></div></div>
      </fieldset>
      <fieldset><legend>Which cloud hosts your service?</legend>
        <div class="options"><label><input type="radio" name="cloud" value="aws"> AWS</label>
          <label><input type="radio" name="cloud" value="gcp"> Google Cloud</label></div>
      </fieldset>
      <p><label><input type="checkbox" name="attest" value="1"> I confirm the answers above are accurate.</label></p>`)
    expect(read().map(({ question, kind, options }) => ({ question, kind, options }))).toEqual([
      {
        question: 'Are critical vulnerabilities fixed within 14 days?',
        kind: 'radio',
        options: ['Yes', 'No'],
      },
      {
        question: 'Which tools scan your code?',
        kind: 'checkbox',
        options: ['Static analysis', 'Dependency scanning'],
      },
      {
        question: 'Which cloud hosts your service?',
        kind: 'radio',
        options: ['AWS', 'Google Cloud'],
      },
      {
        question: 'I confirm the answers above are accurate.',
        kind: 'checkbox',
        options: ['I confirm the answers above are accurate.'],
      },
    ])
  })

  it("lists a select's choices without its placeholder, and fills it as empty", () => {
    page(`
      <label for="hsm">Are keys held in a hardware security module?</label>
      <select id="hsm"><option disabled selected hidden>Select a status</option>
        <option>Implemented</option><option>Planned</option><option>Not applicable</option></select>`)
    expect(read()).toEqual([
      {
        key: 'select:hsm',
        question: 'Are keys held in a hardware security module?',
        kind: 'select',
        options: ['Implemented', 'Planned', 'Not applicable'],
        value: '',
      },
    ])
    expect(fillField(document, 'select:hsm', 'N/A')).toEqual({ ok: true })
    expect((document.getElementById('hsm') as HTMLSelectElement).value).toBe('Not applicable')
  })

  it('reads shadow roots and frames where they stand in the page, each field under a key of its own', () => {
    page(`
      <label for="name">Registered name</label><input id="name">
      <vendor-card></vendor-card><vendor-card></vendor-card>
      <iframe></iframe>
      <label for="other">Anything else?</label><textarea id="other"></textarea>`)
    const cards = [...document.querySelectorAll('vendor-card')]
    cards.forEach((card, index) => {
      card.attachShadow({
        mode: 'open',
      }).innerHTML = `<label for="answer">Card question ${index + 1}</label><input id="answer">`
    })
    const frame = (document.querySelector('iframe') as HTMLIFrameElement)
      .contentDocument as Document
    frame.body.innerHTML = '<label for="name">Framed question</label><input id="name">'
    const fields = read()
    expect(fields.map((field) => field.question)).toEqual([
      'Registered name',
      'Card question 1',
      'Card question 2',
      'Framed question',
      'Anything else?',
    ])
    expect(new Set(fields.map((field) => field.key)).size).toBe(5)
    const second = fields[2] as { key: string }
    expect(fillField(document, second.key, 'Filled')).toEqual({ ok: true })
    const inputs = cards.map((card) => card.shadowRoot?.querySelector('input') as HTMLInputElement)
    expect(inputs.map((input) => input.value)).toEqual(['', 'Filled'])
  })

  it('matches an answer to one option only, never guessing between two', () => {
    expect(optionFor(['Yes', 'No', 'N/A'], 'yes')).toBe(0)
    expect(optionFor(['Implemented', 'Planned', 'Not applicable'], 'Yes')).toBe(0)
    expect(optionFor(['Implemented', 'Planned', 'Not applicable'], 'N/A')).toBe(2)
    expect(optionFor(['Yes', 'True'], 'Yes')).toBe(0)
    expect(optionFor(['In place', 'Implemented'], 'Yes')).toBe(-1)
    expect(optionFor(['Planned', 'Partly'], 'Yes')).toBe(-1)
  })
})
