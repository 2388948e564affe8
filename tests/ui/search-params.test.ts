import { describe, expect, it } from 'vitest'
import { parseSearchText, stringifySearchText } from '../../src/app/search-params.ts'

describe("the address's query (issue 39)", () => {
  it('reads every value as the text it was, so a link\'s uid stays "2"', () => {
    expect(parseSearchText('?uid=2&token=abc-1&flag=true')).toEqual({
      uid: '2',
      token: 'abc-1',
      flag: 'true',
    })
    expect(parseSearchText('uid=2&uid=3')).toEqual({ uid: '2' })
  })

  it('writes text back plainly: no JSON quotes around a number-like text', () => {
    expect(stringifySearchText({ uid: '2', token: 'abc' })).toBe('?uid=2&token=abc')
    expect(stringifySearchText({ question: 12, gone: undefined })).toBe('?question=12')
    expect(stringifySearchText({})).toBe('')
  })

  it('round-trips what it writes', () => {
    const search = { uid: '42', token: 'x y&z', page: '3' }
    expect(parseSearchText(stringifySearchText(search))).toEqual(search)
  })
})
