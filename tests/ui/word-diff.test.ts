import { describe, expect, it } from 'vitest'
import { wordDiff } from '../../src/components/questionnaire/word-diff.ts'

describe('wordDiff', () => {
  it('marks the words removed from the earlier wording and added in the new one', () => {
    expect(
      wordDiff(
        'Do you encrypt data at rest?',
        'Do you encrypt customer data at rest and in transit?',
      ),
    ).toEqual([
      { kind: 'same', text: 'Do you encrypt' },
      { kind: 'added', text: 'customer' },
      // 'rest?' and 'rest' are the same word
      { kind: 'same', text: 'data at rest' },
      { kind: 'added', text: 'and in transit?' },
    ])
  })

  it('treats case and trailing punctuation as the same word, and shows the new wording', () => {
    expect(wordDiff('Backups are tested yearly.', 'backups are tested quarterly')).toEqual([
      { kind: 'same', text: 'backups are tested' },
      { kind: 'removed', text: 'yearly.' },
      { kind: 'added', text: 'quarterly' },
    ])
  })

  it('is all same for the same words, and all added or removed against nothing', () => {
    expect(wordDiff('Is MFA enforced?', 'Is  MFA\nenforced?')).toEqual([
      { kind: 'same', text: 'Is MFA enforced?' },
    ])
    expect(wordDiff('', 'Is MFA enforced?')).toEqual([{ kind: 'added', text: 'Is MFA enforced?' }])
    expect(wordDiff('Is MFA enforced?', '')).toEqual([
      { kind: 'removed', text: 'Is MFA enforced?' },
    ])
    expect(wordDiff('', '')).toEqual([])
  })
})
