import { describe, expect, it } from 'vitest'
import { detectLanguage } from '../../../server/answering/language.ts'
import { styleInstruction } from '../../../server/answering/llm.ts'

describe('the language of a question', () => {
  it.each([
    ['Do you encrypt customer data at rest and in transit?', 'English'],
    ['Verschlüsseln Sie die Daten Ihrer Kunden bei der Speicherung?', 'German'],
    ['Chiffrez-vous les données de vos clients au repos et pendant le transfert ?', 'French'],
    ['¿Cifra usted los datos de sus clientes en reposo y en tránsito?', 'Spanish'],
    ['Crittografate i dati dei clienti a riposo e in transito? Avete una politica?', 'Italian'],
    ['Versleutelt u de gegevens van uw klanten in rust en tijdens het transport?', 'Dutch'],
    ['Você criptografa os dados dos seus clientes em repouso e em trânsito?', 'Portuguese'],
  ])('%s is %s', (text, name) => {
    expect(detectLanguage(text)?.name).toBe(name)
  })

  it('cannot tell a form field or a bare identifier', () => {
    expect(detectLanguage('Product Name')).toBeNull()
    expect(detectLanguage('SOC 2 Type II')).toBeNull()
  })

  it('puts the style into one prompt line', () => {
    expect(styleInstruction({ tone: 'neutral', length: 'detailed', language: 'English' })).toBe(
      'Write the answer in English, in a neutral, factual tone, as a complete paragraph with every specific the evidence gives (scope, frequency, tools).',
    )
  })
})
