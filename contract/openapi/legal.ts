import { type LegalKind, legalDocumentSchema } from '../legal.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

/** The instance's terms of service and privacy policy (issue 30). */
export const legalOperations: OperationDocs = {
  [op('GET', paths.legal('{kind}' as LegalKind))]: {
    summary: 'The instance’s terms of service (`terms`) or privacy policy (`privacy`)',
    description:
      'The operator’s own text or link where they gave one, else Quire’s default naming who runs the instance.',
    access: 'public',
    response: legalDocumentSchema,
  },
}
