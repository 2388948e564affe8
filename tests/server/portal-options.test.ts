import { describe, expect, it } from 'vitest'
import { fillValue, optionFor, optionsNamed, portalAddress } from '../../contract/portal-options.ts'

/**
 * Issue 42: how an answer meets a portal's options. Rule: the option with the answer's own words,
 * else the one option of its yes / no / n-a family; two that could both be meant are never
 * guessed between, and a checkbox group takes only options the answer names whole and does not
 * deny.
 */
describe('portal options', () => {
  it('takes the option an answer names, and never guesses between two', () => {
    const status = ['Implemented', 'Planned', 'Not applicable']
    expect(optionFor(status, 'Implemented')).toBe(0)
    expect(optionFor(status, 'Yes, data is encrypted with AES-256.')).toBe(0)
    expect(optionFor(status, 'N/A')).toBe(2)
    expect(optionFor(status, 'No')).toBe(-1)
    expect(optionFor(['Yes', 'No', 'N/A'], 'No, we do not.')).toBe(1)
    expect(optionFor(['Yes - fully', 'Yes - partially', 'No'], 'Yes.')).toBe(-1)
    expect(optionFor(['Monthly', 'Quarterly'], 'Yes')).toBe(-1)
    expect(optionFor(['Yes', 'No'], '')).toBe(-1)
  })

  it('ticks the boxes an answer names whole, and none it denies', () => {
    const frameworks = ['ISO/IEC 27001', 'SOC 2 Type II', 'PCI DSS', 'Other']
    expect(optionsNamed(frameworks, 'SOC 2 Type II, ISO/IEC 27001 and PCI DSS')).toEqual([
      'ISO/IEC 27001',
      'SOC 2 Type II',
      'PCI DSS',
    ])
    expect(
      optionsNamed(
        frameworks,
        'We hold a SOC 2 Type II report; we do not process card data, so PCI DSS does not apply.',
      ),
    ).toEqual(['SOC 2 Type II'])
    // a single common word is not taken from a sentence
    expect(optionsNamed(frameworks, 'We hold no other certification.')).toEqual([])
    expect(optionsNamed(['I confirm the answers are accurate'], 'Yes')).toEqual([
      'I confirm the answers are accurate',
    ])
    expect(optionsNamed(['I confirm the answers are accurate'], 'No')).toEqual([])
  })

  it('fills a choice with its option and a text field with the words', () => {
    const answer = { text: 'Yes, with AES-256.', choice: 'Yes', option: 'Implemented' }
    expect(fillValue({ kind: 'select' }, answer)).toBe('Implemented')
    expect(fillValue({ kind: 'radio' }, { ...answer, option: null })).toBeNull()
    expect(fillValue({ kind: 'textarea' }, answer)).toBe('Yes, with AES-256.')
    expect(fillValue({ kind: 'text' }, { text: '', choice: 'No' })).toBe('No')
    expect(fillValue({ kind: 'text' }, { text: '  ', choice: null })).toBeNull()
  })

  it('finds a portal page again by its address, whatever the visit added to it', () => {
    expect(
      portalAddress('https://Vendors.Example.com/assess/42/?utm_source=x&b=2&a=1#step-3'),
    ).toBe('https://vendors.example.com/assess/42?a=1&b=2')
    expect(portalAddress('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/')
  })
})
