import { describe, expect, it } from 'vitest'
import { loadTierCatalog } from '../../server/modules/account/license.ts'

/**
 * Issue 30: the pricing cards listed as a paid perk what the free tier already had. The shipped
 * tiers' cards say what their limits are, and a paid card lists nothing the free card has.
 */
describe('the shipped license tiers', () => {
  const catalog = loadTierCatalog()
  const number = (text: string) => Number(text.replace(/,/g, ''))

  it('state the limits each tier has, and nothing else as a number', () => {
    const claims: [
      RegExp,
      'max_users' | 'max_repository' | 'max_questionnaire' | 'max_answers' | 'max_chat_questions',
    ][] = [
      [/^([\d,]+) people$/, 'max_users'],
      [/^([\d,]+) repository files$/, 'max_repository'],
      [/^([\d,]+) questionnaires$/, 'max_questionnaire'],
      [/^([\d,]+) answers$/, 'max_answers'],
      [/^([\d,]+) chat questions a month$/, 'max_chat_questions'],
    ]
    for (const tier of catalog.tiers) {
      for (const [pattern, limit] of claims) {
        const line = tier.features.find((text) => pattern.test(text))
        const value = tier.limits[limit]
        if (value === 0) expect(line, `${tier.key} ${limit} is unlimited`).toBeUndefined()
        else
          expect(line && number(pattern.exec(line)?.[1] ?? ''), `${tier.key} ${limit}`).toBe(value)
      }
      const languages = tier.features.some((text) => /own language|several languages/.test(text))
      expect(languages, `${tier.key} languages`).toBe(tier.limits.multi_language)
    }
  })

  it('list on a paid card nothing the free card already has', () => {
    const free = new Set(catalog.defaultTier.features)
    for (const tier of catalog.tiers.filter((t) => t !== catalog.defaultTier))
      expect(
        tier.features.filter((text) => free.has(text)),
        tier.key,
      ).toEqual([])
  })
})
